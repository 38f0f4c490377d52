/* SPDX-License-Identifier: MIT */
/*
 * chrome_sched.h - the scheduling file in a Chrome trace (chrome_sched.c):
 * under each thread a track "<tid> state" (a synthetic thread id,
 * CHROME_STATE_TID_BASE + tid, since the format only has numeric ids)
 * with its states as complete events, Running / Runnable / Sleeping / D /
 * Stopped, and a flow arrow from the waker to the woken thread at each
 * wakeup by a task.  chrome_writer.c shares its JSON pieces here.
 */
#ifndef FDRLOG_CHROME_SCHED_H
#define FDRLOG_CHROME_SCHED_H

#include <stdbool.h>
#include <fdr_reader.h>
#include "out_buffer.h"

/* Above any Linux thread id (PID_MAX_LIMIT is 2^22). */
#define CHROME_STATE_TID_BASE	(1ll << 30)

/* chrome_writer.c */
void chrome_json_string(struct out_buffer *o, const void *str, size_t n);
void chrome_timestamp(struct out_buffer *o, uint64_t tsc, uint64_t freq);
void chrome_metadata(struct out_buffer *o, const char *what, int64_t pid, int64_t tid,
		     const char *name, bool first);

struct chrome_sched {
	const struct fdr_sched *sched;
	const struct fdr_thread_table *threads;	/* may be NULL */
	uint64_t freq;
	uint64_t lo, hi;	/* the log's first and last TSC: the tracks' extent */
};

/* A thread_name per state track; first: nothing was written before. */
void chrome_sched_names(struct out_buffer *o, const struct chrome_sched *cs, bool first);
/* The state events and wakeup flows, each after ",\n". */
void chrome_sched_events(struct out_buffer *o, const struct chrome_sched *cs);

#endif
