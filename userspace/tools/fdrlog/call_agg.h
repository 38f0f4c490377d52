/* SPDX-License-Identifier: MIT */
/*
 * call_agg.h - calls merged by call path, what flame draws and graph
 * prints: one node per distinct path of functions, with the calls that
 * took it and their summed durations, children in order of first call.
 * What the filters hide is left out, and what it holds that they show
 * takes its place (view_filter_marks), as in replay.
 */
#ifndef FDRLOG_CALL_AGG_H
#define FDRLOG_CALL_AGG_H

#include <stddef.h>
#include <stdint.h>
#include "call_tree.h"

struct call_agg_node {
	int32_t fid;
	uint64_t ticks;			/* the calls' durations, summed */
	uint32_t calls;
	uint32_t first_child, next_sibling, last_child;
};

struct call_agg {
	struct call_agg_node *a;	/* a[0]: the root, no function */
	size_t n, cap;
	const struct call_forest *f;
	const uint8_t *shown;		/* per node of f: the filters show it */
	unsigned max_depth;		/* of the deepest node below the root */
};

/* An empty aggregate (the root alone) over f; 0, or -1 out of memory. */
int call_agg_init(struct call_agg *g, const struct call_forest *f, const uint8_t *shown);
void call_agg_free(struct call_agg *g);

/* The child of parent for fid, made if new; CALL_NONE on out of memory. */
uint32_t call_agg_child(struct call_agg *g, uint32_t parent, int32_t fid);

/*
 * Merge the call tree node (of f) and what it holds under parent, depth
 * levels below the root; a call added under the root also adds to the
 * root's ticks.  0, or -1 out of memory.
 */
int call_agg_add(struct call_agg *g, uint32_t parent, uint32_t node, unsigned depth);

/* Every thread's calls under the root. */
int call_agg_add_all(struct call_agg *g);

#endif
