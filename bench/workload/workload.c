/* SPDX-License-Identifier: MIT */
/*
 * workload.c - the traced functions: a leaf and a depth-8 call tree.
 *
 * TRACE_ENTER/TRACE_EXIT come from the tracer's trace_hooks.h (empty for
 * the uninstrumented build and for tracers that instrument at compile
 * time: XRay sleds, -pg mcount).  Every traced function is noinline and
 * has external linkage so the compiler keeps each call, and the small
 * mix() keeps the body from being folded away.
 */
#include "workload.h"
#include "trace_hooks.h"

#define TRACED __attribute__((noinline))

/* A few cycles of real work the optimizer cannot see through. */
static inline uint64_t mix(uint64_t x)
{
	__asm__ volatile("" : "+r"(x));
	return (x ^ (x >> 29)) * 0xbf58476d1ce4e5b9ull;
}

TRACED uint64_t bench_leaf(uint64_t x);
TRACED uint64_t bench_leaf(uint64_t x)
{
	TRACE_ENTER(FID_LEAF);
	x = mix(x);
	TRACE_EXIT(FID_LEAF);
	return x;
}

uint64_t workload_leaf(uint64_t calls)
{
	uint64_t acc = 0;

	for (uint64_t i = 0; i < calls; i++)
		acc += bench_leaf(i);
	return acc;
}

/* Level 8 is the leaf of the tree; levels 1..7 call the next one twice. */
TRACED uint64_t bench_level8(uint64_t x);
TRACED uint64_t bench_level8(uint64_t x)
{
	TRACE_ENTER(FID_LEVEL1 + 7);
	x = mix(x);
	TRACE_EXIT(FID_LEVEL1 + 7);
	return x;
}

#define TREE_LEVEL(k, next)						\
	TRACED uint64_t bench_level##k(uint64_t x);			\
	TRACED uint64_t bench_level##k(uint64_t x)			\
	{								\
		TRACE_ENTER(FID_LEVEL1 + (k) - 1);			\
		x = bench_level##next(mix(x)) ^ bench_level##next(x + (k)); \
		TRACE_EXIT(FID_LEVEL1 + (k) - 1);			\
		return x;						\
	}

TREE_LEVEL(7, 8)
TREE_LEVEL(6, 7)
TREE_LEVEL(5, 6)
TREE_LEVEL(4, 5)
TREE_LEVEL(3, 4)
TREE_LEVEL(2, 3)
TREE_LEVEL(1, 2)

uint64_t workload_tree(uint64_t roots)
{
	uint64_t acc = 0;

	for (uint64_t i = 0; i < roots; i++)
		acc += bench_level1(i);
	return acc;
}
