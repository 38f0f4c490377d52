/* SPDX-License-Identifier: MIT */
/*
 * rdtsc_store_loop.c - the floor: a loop of rdtsc + one 8-byte store into
 * a 64 KiB ring, i.e. a timestamp written to memory and nothing else.
 * The acceptance target compares fdr's cost per event with this loop's
 * cost per iteration.  Prints the harness's line format:
 *
 *   floor <calls = iterations/2> <events = iterations> <wall_ns> <cpu_ns>
 *
 * (cpu_ns: this thread's CPU time, as the harness reports for leaf/tree.)
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <x86intrin.h>

#define RING_WORDS 8192u	/* 64 KiB, as the floor hooks */

static uint64_t ring[RING_WORDS];

static uint64_t clock_ns(clockid_t clock)
{
	struct timespec ts;

	clock_gettime(clock, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static void loop(uint64_t iterations)
{
	for (uint64_t i = 0; i < iterations; i++)
		ring[i & (RING_WORDS - 1)] = __rdtsc();
}

int main(int argc, char **argv)
{
	uint64_t calls, wall, cpu;

	if (argc < 2 || (calls = strtoull(argv[1], NULL, 0)) == 0) {
		fprintf(stderr, "usage: %s CALLS\n", argv[0]);
		return 2;
	}
	loop(40000);		/* warm the ring into the cache */
	cpu = clock_ns(CLOCK_THREAD_CPUTIME_ID);
	wall = clock_ns(CLOCK_MONOTONIC);
	loop(2 * calls);
	wall = clock_ns(CLOCK_MONOTONIC) - wall;
	cpu = clock_ns(CLOCK_THREAD_CPUTIME_ID) - cpu;
	/* Keep the stores observable. */
	if (ring[calls & (RING_WORDS - 1)] == 0)
		fprintf(stderr, "floor: empty ring?\n");
	printf("floor %llu %llu %llu %llu\n", (unsigned long long)calls,
	       (unsigned long long)(2 * calls), (unsigned long long)wall,
	       (unsigned long long)cpu);
	return 0;
}
