/* SPDX-License-Identifier: MIT */
/*
 * view_filter.h - what every view shares: which calls to show (the
 * filter options, uftrace's) and how a function is named.
 */
#ifndef FDRLOG_VIEW_FILTER_H
#define FDRLOG_VIEW_FILTER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "call_tree.h"
#include "filter_opts.h"
#include "symbols.h"

/*
 * The short name of fid: the symbol (or "#fid"), C++ parameter list and
 * return type cut ("void ns::bar<int>(int)" -> "ns::bar<int>"), as
 * uftrace prints functions.  tmp (>= 256 bytes) may hold it.
 */
const char *view_name(const struct symbols *syms, int32_t fid, char *tmp, size_t len);

/*
 * What the filter options show, as uftrace's filters decide
 * (filter_opts.h).  -F FUNC starts showing at FUNC (a -F nested
 * under another restarts -D's count); -N FUNC hides FUNC and its callees;
 * between -F and -N naming one function the later wins; -C FUNC keeps
 * FUNC, as a leaf, and its callers; -D N keeps N levels; -t DUR hides
 * calls shorter than DUR (and so their callees); -r keeps the calls that
 * lie within the range; --tid the threads named; the -T triggers act at
 * their function's entry (depth=, time=, trace_on, trace_off) or after its
 * first return (finish).
 *
 * view_filter_apply: narrow t (sorted by TSC) to the records of the calls
 * shown, in the same order, for report and convert.  0; 1 out of memory
 * (message); 2 a pattern names no function of the log (message with the
 * close matches).
 */
int view_filter_apply(const struct filter_opts *f, struct fdr_trace *t,
		      const struct symbols *syms, const char *who);

/* view_filter_apply's first step alone, before any output: does each
 * pattern name a function of t, each --tid a thread?  0, 1 or 2 as there. */
int view_filter_check(const struct filter_opts *f, const struct fdr_trace *t,
		      const struct symbols *syms, const char *who);

/* For views that draw the tree: *shown (malloc'ed, one byte per node of
 * cf, built from t) non-zero for a node shown; 0, or -1 (out of memory). */
int view_filter_marks(const struct filter_opts *f, const struct fdr_trace *t,
		      const struct call_forest *cf, const struct symbols *syms, uint8_t **shown);

/* TSC ticks to nanoseconds (ticks are nanoseconds when freq is 0). */
uint64_t view_ns(uint64_t ticks, uint64_t freq);

struct out_buffer;
/* A duration as uftrace prints one: "%*u.%03u us" (width digits before
 * the point; 0: as many as needed), ms and s from 1000 of the smaller
 * unit; with a width, "s" is " s" so that every unit is as wide. */
void view_put_time(struct out_buffer *o, uint64_t ns, int width);

#endif
