/* SPDX-License-Identifier: MIT */
/*
 * graph.h - `fdr graph`: the calls aggregated by call path and printed as
 * `uftrace graph` prints them.  Without a function: the whole program's
 * graph under one node named after it.  With one: its backtraces (each
 * distinct chain of callers of its outermost calls, with their hits and
 * time), then the graph of what its calls called.
 */
#ifndef FDRLOG_GRAPH_H
#define FDRLOG_GRAPH_H

#include <stddef.h>
#include <stdint.h>
#include <fdr_reader.h>
#include "filter_opts.h"
#include "out_buffer.h"
#include "symbols.h"

struct graph_request {
	const int32_t *fids;		/* the functions asked for, one graph each; */
	size_t nfids;			/* none: the whole program's */
	const char *prog;		/* the whole graph's top node */
	const char *log;		/* named in the header */
};

/* What the filters show of t (names checked before: view_filter_check);
 * -1 on out of memory. */
int write_graph(struct out_buffer *o, const struct fdr_trace *t, const struct symbols *syms,
		const struct filter_opts *filter, const struct graph_request *req);

#endif
