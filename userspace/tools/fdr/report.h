/* SPDX-License-Identifier: MIT */
/*
 * report.h - `fdr report`: per function, calls and total and self time
 * (total minus the time of completed direct callees), over the calls
 * fdrlog's call_walk matches, with uftrace's filters: -F FUNC keeps FUNC
 * and what it calls, -N FUNC drops FUNC and what it calls, --depth N keeps
 * calls less than N frames deep (counted from the -F function, if any).
 * Total time adds only a function's outermost calls (call_is_nested).
 */
#ifndef FDR_REPORT_H
#define FDR_REPORT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <fdr_reader.h>
#include "commands.h"
#include "data_source.h"
#include "filter_opts.h"

struct symbols;

enum report_sort {
	SORT_TOTAL, SORT_SELF, SORT_CALLS, SORT_NAME, SORT_ID,
	SORT_ON_CPU, SORT_RUNNABLE, SORT_BLOCKED,	/* need scheduling data */
};

struct report_opts {
	enum report_sort sort;
	bool json;
	struct filter_opts filter;	/* -F, -N, -C, -T, -D, -t, -r, --tid, --match */
	struct sched_source sched;	/* --sched FILE, --no-sched */
};

struct report_func {
	int32_t fid;
	char *name;			/* demangled */
	uint64_t calls, total_ticks, self_ticks;	/* total: outermost calls only */
	struct fdr_sched_split sched;	/* of total_ticks: where the calls' time went */
};

struct report {
	struct report_func *funcs;	/* after report_build: sorted */
	size_t nfuncs;
	size_t *slot;			/* fid hash -> funcs index + 1 */
	size_t nslots;
	uint64_t orphan_exits, open_calls, unwound;
	uint64_t hz;			/* ticks per second (0: ticks are ns) */
	const struct fdr_sched *sched;	/* NULL: no scheduling data */
	bool sched_unknown;		/* some time before a thread's first record */
	uint64_t dropped;		/* records the writers dropped (drop markers) */
	size_t drop_places;		/* drop markers */
	const struct data_trigger *trigger; /* NULL: no trigger ended the recording */
	long threshold_us;		/* calls shorter were not recorded; -1: not known */
	int attached;			/* data_source.h's: what an exit without entry is */
	char trigger_name[256];		/* its function, as the table names it */
};

/* t: the trace as the filters left it; sched (may be NULL): the log's
 * .sched file.  0, or -1 on out of memory. */
int fdr__report_build(struct report *r, const struct fdr_trace *t, const struct symbols *syms,
		      const struct report_opts *o, const struct fdr_sched *sched);
/* Streaming mode's drop markers of the whole trace t (before the filters:
 * they are no call), of --tid's threads; 0, or -1 on out of memory. */
int fdr__report_count_drops(struct report *r, const struct fdr_trace *t,
			    const struct filter_opts *f);
void fdr__report_free(struct report *r);
uint64_t fdr__report_ns(const struct report *r, uint64_t ticks);
/* fid's name as the table prints it (demangled, or "#fid" without syms);
 * malloc'ed, NULL on ENOMEM. */
char *fdr__report_name(const struct symbols *syms, int32_t fid);

/* report_print.c */
void fdr__report_print_text(FILE *f, const struct report *r);
void fdr__report_print_json(FILE *f, const struct report *r, const char *log);

/* demangle.c: the demangled C++ name, or a copy of name; NULL on ENOMEM. */
char *fdr__demangle(const char *name);

#endif
