/* SPDX-License-Identifier: MIT */
/*
 * filter_match.h - which -F/-N/-C/-T rules name which function of a log:
 * worked out once per function id, so a view asks per call in O(log n).
 * A pattern is matched as uftrace matches it: against the short name a
 * view prints (view_name: demangled, without parameters or return type);
 * a POSIX extended regex (unanchored) when it holds one of
 * .?*+-^$|()[]{}, else the exact name; with --match glob an fnmatch
 * pattern.  The full symbol, "#id" and a bare id name a function too.
 */
#ifndef FDRLOG_FILTER_MATCH_H
#define FDRLOG_FILTER_MATCH_H

#include <stdbool.h>
#include <stdint.h>
#include <fdr_reader.h>
#include "filter_opts.h"
#include "symbols.h"

/* What the rules say about one function. */
struct fid_rules {
	int32_t fid;
	char fn;		/* the last -F or -N naming it: 'F', 'N', or 0 */
	bool caller;		/* named by a -C */
	unsigned actions;	/* of every -T naming it (enum filter_action) */
	unsigned depth;		/* the last -T depth=N */
	uint64_t time_ns;	/* the last -T time=DUR */
};

struct filter_match {
	struct fid_rules *v;	/* sorted by fid: every function of the log */
	size_t n;
};

/*
 * Match every rule against every function of t.  0; 1 out of memory
 * (message); 2 when a rule names no function of the log (message with
 * the close matches, as `fdr record -F` does for a name).  who NULL:
 * no message.
 */
int filter_match_build(struct filter_match *m, const struct filter_opts *f,
		       const struct fdr_trace *t, const struct symbols *syms, const char *who);
const struct fid_rules *filter_match_find(const struct filter_match *m, int32_t fid);
void filter_match_free(struct filter_match *m);

#endif
