/* SPDX-License-Identifier: MIT */
/*
 * clock_costs.c - what one timestamp costs on this machine, by source:
 * rdtsc (what fdr and the floor use), rdtscp (what compiler-rt's XRay
 * uses when it trusts the TSC) and clock_gettime(CLOCK_REALTIME) (its
 * fallback when it finds no TSC frequency).  Explains the floor and the
 * XRay comparison.  One line per source, in the harness's format:
 *
 *   <source> <reads> <reads> <elapsed_ns>
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <x86intrin.h>

static volatile uint64_t sink;

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static void report(const char *name, uint64_t n, uint64_t ns)
{
	printf("%s %llu %llu %llu\n", name, (unsigned long long)n,
	       (unsigned long long)n, (unsigned long long)ns);
}

int main(int argc, char **argv)
{
	uint64_t n, i, t0, acc = 0;
	struct timespec ts;
	unsigned int aux;

	if (argc < 2 || (n = strtoull(argv[1], NULL, 0)) == 0) {
		fprintf(stderr, "usage: %s READS\n", argv[0]);
		return 2;
	}
	t0 = now_ns();
	for (i = 0; i < n; i++)
		acc += __rdtsc();
	report("rdtsc", n, now_ns() - t0);

	t0 = now_ns();
	for (i = 0; i < n; i++)
		acc += __rdtscp(&aux);
	report("rdtscp", n, now_ns() - t0);

	t0 = now_ns();
	for (i = 0; i < n; i++) {
		clock_gettime(CLOCK_REALTIME, &ts);
		acc += (uint64_t)ts.tv_nsec;
	}
	report("clock_gettime", n, now_ns() - t0);
	sink = acc;
	return 0;
}
