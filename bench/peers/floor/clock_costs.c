/* SPDX-License-Identifier: MIT */
/*
 * clock_costs.c - what one timestamp costs on this machine, by source:
 * rdtsc (what fdr and the floor use), rdtscp (what compiler-rt's XRay
 * uses when it trusts the TSC) and clock_gettime(CLOCK_REALTIME) (its
 * fallback when it finds no TSC frequency).  Explains the floor and the
 * XRay comparison.  One line per source, in the harness's format:
 *
 *   <source> <reads> <reads> <wall_ns> <cpu_ns>
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <x86intrin.h>

static volatile uint64_t sink;

static uint64_t clock_ns(clockid_t clock)
{
	struct timespec ts;

	clock_gettime(clock, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

struct stamp {
	uint64_t wall, cpu;
};

static struct stamp stamp_start(void)
{
	struct stamp s;

	s.cpu = clock_ns(CLOCK_THREAD_CPUTIME_ID);
	s.wall = clock_ns(CLOCK_MONOTONIC);
	return s;
}

static void report(const char *name, uint64_t n, struct stamp s)
{
	uint64_t wall = clock_ns(CLOCK_MONOTONIC) - s.wall;
	uint64_t cpu = clock_ns(CLOCK_THREAD_CPUTIME_ID) - s.cpu;

	printf("%s %llu %llu %llu %llu\n", name, (unsigned long long)n,
	       (unsigned long long)n, (unsigned long long)wall,
	       (unsigned long long)cpu);
}

int main(int argc, char **argv)
{
	uint64_t n, i, acc = 0;
	struct stamp t0;
	struct timespec ts;
	unsigned int aux;

	if (argc < 2 || (n = strtoull(argv[1], NULL, 0)) == 0) {
		fprintf(stderr, "usage: %s READS\n", argv[0]);
		return 2;
	}
	t0 = stamp_start();
	for (i = 0; i < n; i++)
		acc += __rdtsc();
	report("rdtsc", n, t0);

	t0 = stamp_start();
	for (i = 0; i < n; i++)
		acc += __rdtscp(&aux);
	report("rdtscp", n, t0);

	t0 = stamp_start();
	for (i = 0; i < n; i++) {
		clock_gettime(CLOCK_REALTIME, &ts);
		acc += (uint64_t)ts.tv_nsec;
	}
	report("clock_gettime", n, t0);
	sink = acc;
	return 0;
}
