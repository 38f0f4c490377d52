/* SPDX-License-Identifier: MIT */
/*
 * scribble_cases.h - the ways a hostile process ruins a region it can
 * write: each case overwrites part of the control area, the descriptors
 * or the committed data of a live region with garbage.
 */
#ifndef REL_SCRIBBLE_CASES_H
#define REL_SCRIBBLE_CASES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <linux/fdr.h>

/* What the scribbler sees: the mapping and the geometry as the kernel
 * (or the creator) gave it, read before any damage. */
struct scribble_map {
	uint8_t *base;
	size_t len;
	uint64_t control_size, buffer_size;
	uint32_t nr_buffers, nr_cpus, descs_offset, rings_offset;
	uint32_t generation, flags;
};

struct scribble_case {
	const char *name;
	void (*apply)(const struct scribble_map *m, unsigned *seed);
	bool control;		/* hits the control area's header: on the
				 * embedded backend, where that header is
				 * the only copy of the state, the region
				 * may refuse service (but nobody may crash) */
	bool want_log;		/* geometry, states and generations are
				 * intact: fdrd must still write the
				 * valid part */
	bool device_log;	/* only the control page's copies of the
				 * state, generation, flags, TSC rate or
				 * finalize trigger are hit: the kernel keeps
				 * its own (STATUS), so on the device fdrd
				 * must write every pair the writers made,
				 * with the kernel's facts */
	bool after_finalize;	/* hit again after the finalize and before
				 * fdrd starts: the kernel writes its
				 * finalize facts into the page when it
				 * finalizes, over the first damage */
};

/* Random bytes in the data: any record may result, fdrd cannot know. */
void scribble_data_random(const struct scribble_map *m, unsigned *seed);

extern const struct scribble_case scribble_cases[];
extern const unsigned scribble_nr_cases;

#endif
