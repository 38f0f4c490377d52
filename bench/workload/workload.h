/* SPDX-License-Identifier: MIT */
/*
 * workload.h - the calls every tracer is measured on.
 *
 * workload.c is compiled once per tracer, with that tracer's
 * trace_hooks.h (or its compiler instrumentation), so every candidate runs
 * exactly the same source.  The harness (harness.c) is never instrumented:
 * only the calls counted below produce events.
 */
#ifndef BENCH_WORKLOAD_H
#define BENCH_WORKLOAD_H

#include <stdint.h>

/* Function ids given to tracers that take an explicit id (fdr, LTTng). */
enum workload_fid {
	FID_LEAF = 1,
	FID_LEVEL1 = 2,		/* FID_LEVEL1 + k - 1 is level k, k = 1..8 */
};

#define WORKLOAD_TREE_DEPTH	8
/* Calls made by one tree root: a full binary tree of depth 8. */
#define WORKLOAD_TREE_CALLS	((1u << WORKLOAD_TREE_DEPTH) - 1)

/* Events (entry or exit records) per traced call. */
#define WORKLOAD_EVENTS_PER_CALL	2

/* Call the leaf function `calls` times; returns a value to keep alive. */
uint64_t workload_leaf(uint64_t calls);

/* Walk the depth-8 call tree `roots` times (WORKLOAD_TREE_CALLS each). */
uint64_t workload_tree(uint64_t roots);

#endif /* BENCH_WORKLOAD_H */
