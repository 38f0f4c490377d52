/* SPDX-License-Identifier: MIT */
/*
 * ring_facts.h - what fdrd's side table (LOG.threads) says of the ring of
 * a flight recorder's generation: buffers it recycled (overwrote with data
 * in them) and records its writers dropped, read by fdrd from STATUS while
 * it held the generation FLUSHING (Documentation/fdrd.md).
 *
 * The judge's only source for "did this ring lose data on purpose": a
 * STATUS of the judge's own races fdrd --auto-reset, whose INIT clears
 * the counters, and so says nothing on a loaded host (issue 31).
 */
#ifndef REL_RING_FACTS_H
#define REL_RING_FACTS_H

#include <stdbool.h>
#include <stdint.h>

struct ring_facts {
	uint64_t buffers_recycled;
	uint64_t records_dropped;
};

/* From LOG.threads; false when it has no such lines (or no file). */
bool ring_facts_read(const char *log, struct ring_facts *f);

/* Did the ring lose records of this generation by design? */
static inline bool ring_facts_lossy(const struct ring_facts *f)
{
	return f->buffers_recycled || f->records_dropped;
}

#endif
