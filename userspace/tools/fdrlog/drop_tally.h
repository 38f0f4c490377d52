/* SPDX-License-Identifier: MIT */
/*
 * drop_tally.h - what the drop markers of a trace add up to (streaming
 * mode: records the writers dropped because no buffer was free), for the
 * summaries of `fdrlog account` and `fdr report`.  Which event is a marker
 * is libfdrread's rule (fdr_event_drop_marker()).
 */
#ifndef FDRLOG_DROP_TALLY_H
#define FDRLOG_DROP_TALLY_H

#include <stddef.h>
#include <stdint.h>
#include <fdr_reader.h>

struct drop_tally {
	uint64_t records;	/* saturates at UINT64_MAX: a hostile log may sum past it */
	size_t places;		/* markers */
	uint32_t *tids;		/* the threads with a marker, distinct, ascending */
	size_t ntids;
};

/* Markers of thread tid (every thread if tid < 0); 0, or -1 on out of memory. */
int drop_tally_build(struct drop_tally *d, const struct fdr_trace *t, long tid);
void drop_tally_free(struct drop_tally *d);

/*
 * "77, 1234" into buf (always terminated): at most 16 ids, then
 * " and N more", so a log of a million threads gives one short line.
 */
#define DROP_TALLY_THREADS_MAX 256
void drop_tally_threads(const struct drop_tally *d, char buf[DROP_TALLY_THREADS_MAX]);

#endif
