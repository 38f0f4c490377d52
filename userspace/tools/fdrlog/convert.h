/* SPDX-License-Identifier: MIT */
/* convert.h - the output formats of `fdrlog convert` and `fdrlog account`. */
#ifndef FDRLOG_CONVERT_H
#define FDRLOG_CONVERT_H

#include <fdr_reader.h>
#include "out_buffer.h"
#include "symbols.h"

/* llvm-xray convert -f yaml's text (symbolized like -y when syms != NULL). */
void write_yaml(struct out_buffer *o, const struct fdr_trace *t,
		const struct symbols *syms);
/* Chrome trace-event JSON; threads (may be NULL): fdrd's side table, for
 * real pids and process/thread names. */
void write_chrome(struct out_buffer *o, const struct fdr_trace *t,
		  const struct symbols *syms, const struct fdr_thread_table *threads);

struct view_filter;
/* uftrace-replay-like call trees per thread (replay.c); -1 on out of memory. */
int write_replay(struct out_buffer *o, const struct fdr_trace *t, const struct symbols *syms,
		 const struct fdr_thread_table *threads, const struct view_filter *filter);

/* A self-contained SVG flame graph (flame.c); -1 on out of memory. */
int write_flame(struct out_buffer *o, const struct fdr_trace *t, const struct symbols *syms,
		const struct view_filter *filter, const char *title);

enum account_sort { SORT_FUNC, SORT_COUNT, SORT_MIN, SORT_MED, SORT_P90, SORT_P99,
		    SORT_MAX, SORT_SUM };
struct account_options {
	enum account_sort sort;
	int descending;
	size_t top;		/* 0: all */
};
/* Per-function latency table; -1 on out of memory. */
int write_account(struct out_buffer *o, const struct fdr_trace *t,
		  const struct symbols *syms, const struct account_options *opt);

#endif
