/* SPDX-License-Identifier: MIT */
/*
 * trace_hooks.h for the "floor hooks" build: each event is one rdtsc and
 * one 8-byte store into a per-thread 64 KiB ring, the least any tracer
 * that timestamps events must do.  Shows the floor inside the workload.
 */
#ifndef BENCH_TRACE_HOOKS_H
#define BENCH_TRACE_HOOKS_H

#include <stdint.h>
#include <x86intrin.h>

#define FLOOR_RING_WORDS 8192u	/* 64 KiB: a trace buffer's size */

extern __thread uint64_t floor_ring[FLOOR_RING_WORDS];
extern __thread uint32_t floor_pos;

static inline void floor_record(void)
{
	floor_ring[floor_pos++ & (FLOOR_RING_WORDS - 1)] = __rdtsc();
}

#define TRACE_ENTER(fid) ((void)(fid), floor_record())
#define TRACE_EXIT(fid) ((void)(fid), floor_record())

#endif
