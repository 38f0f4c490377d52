/* SPDX-License-Identifier: MIT */
/*
 * view_filter.h - what replay and flame share: which calls to show
 * (-F/-N/--depth, as uftrace's filters) and how a function is named.
 */
#ifndef FDRLOG_VIEW_FILTER_H
#define FDRLOG_VIEW_FILTER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "call_tree.h"
#include "symbols.h"

#define VIEW_MAX_NAMES 32

struct view_filter {
	const char *only[VIEW_MAX_NAMES];	/* -F: subtrees of these */
	size_t nonly;
	const char *hide[VIEW_MAX_NAMES];	/* -N: not these, nor below */
	size_t nhide;
	unsigned max_depth;			/* --depth: 0 = no limit */
	bool attached;				/* --attached: the log starts at an
						 * fdr record -p attach (replay) */
};

/* Add a -F or -N name; -1 if there are too many. */
int view_filter_add(const char **list, size_t *n, const char *name);

/*
 * The short name of fid: the symbol (or "#fid"), C++ parameter list and
 * return type cut ("void ns::bar<int>(int)" -> "ns::bar<int>"), as
 * uftrace prints functions.  tmp (>= 256 bytes) may hold it.
 */
const char *view_name(const struct symbols *syms, int32_t fid, char *tmp, size_t len);

/* Does FUNC (as given to -F/-N) name fid: its short name, its full
 * symbol, "#fid" or the bare id? */
bool view_name_matches(const struct symbols *syms, int32_t fid, const char *func);

bool view_hidden(const struct view_filter *v, const struct symbols *syms, int32_t fid);
bool view_is_root(const struct view_filter *v, const struct symbols *syms, int32_t fid);

/* TSC ticks to nanoseconds (ticks are nanoseconds when freq is 0). */
uint64_t view_ns(uint64_t ticks, uint64_t freq);

#endif
