/* SPDX-License-Identifier: MIT */
/*
 * sched_time.h - what the per-function reports (`fdrlog account`, `fdr
 * report`) take from fdrd's `<log>.sched`: the file itself (default next
 * to the log; one that does not check out is read as absent, with a
 * warning), each call's on-CPU, runnable and blocked ticks, and why there
 * is no such time when there is no such file.  That is said where it
 * matters, once: replay's header (its durations then hold time off CPU,
 * unmarked) and a --sort on-cpu that cannot be done; a table without the
 * columns shows no zero blocked time, so it says nothing more.
 */
#ifndef FDRLOG_SCHED_TIME_H
#define FDRLOG_SCHED_TIME_H

#include <fdr_reader.h>
#include "call_walk.h"

struct sched_source;

/* "no scheduling data was recorded (...)", or "... read (--no-sched)". */
const char *sched_none_reason(const struct sched_source *src);

/* Add where the ticks of call c ([entry, exit) on its thread) went. */
void sched_add_call(struct fdr_sched_split *sum, const struct fdr_sched *s,
		    const struct call_done *c);

#endif
