/* SPDX-License-Identifier: MIT */
/*
 * sched_time.h - what the per-function reports (`fdrlog account`, `fdr
 * report`) take from fdrd's `<log>.sched`: the file itself (default next
 * to the log; one that does not check out is read as absent, with a
 * warning), each call's on-CPU, runnable and blocked ticks, and the one
 * line they print when there is no such file, so that no report pretends
 * its threads never slept.
 */
#ifndef FDRLOG_SCHED_TIME_H
#define FDRLOG_SCHED_TIME_H

#include <stdio.h>
#include <fdr_reader.h>
#include "call_walk.h"

struct sched_source;

/* "WHO: no scheduling data ..." on f: the line a report gives without the file. */
void sched_say_none(FILE *f, const char *who, const struct sched_source *src);

/* Add where the ticks of call c ([entry, exit) on its thread) went. */
void sched_add_call(struct fdr_sched_split *sum, const struct fdr_sched *s,
		    const struct call_done *c);

#endif
