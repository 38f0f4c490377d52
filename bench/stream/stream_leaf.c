/* SPDX-License-Identifier: MIT */
/*
 * stream_leaf.c - bench/stream's own driver of the workload's leaf loop:
 * the same workload.c (XRay build) and the same xray-fdr tracer as
 * build/bench/xray-fdr, with what the shared harness has not got: a pace
 * and a CPU to run on.
 *
 *   stream-leaf CALLS RATE [CPU]
 *
 * CALLS  leaf calls to time (after the harness's 20000 warm-up calls)
 * RATE   events per second to pace the calls at (2 events per call);
 *        0: unpaced, the leaf loop at full speed
 * CPU    pin the thread to this CPU number (it may be outside the
 *        affinity the process started with: run.sh starts `fdr record`,
 *        the flusher, on the other CPU with taskset); -1 or absent: not
 *        pinned
 *
 * Prints one line, the harness's format plus the pace asked for:
 *
 *   paced <calls> <events> <wall_ns> <cpu_ns> <rate_asked>
 *
 * Pacing: calls go in batches of 1000 (2000 events); before each batch
 * the thread spins until the time that batch is due at RATE, so the rate
 * is steady at the scale of a buffer (64 KiB hold thousands of events)
 * and a late batch is not made up for by a burst.
 */
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "tracer.h"
#include "workload.h"

#define WARMUP_CALLS 20000	/* as the harness */
#define BATCH 1000

static volatile uint64_t sink;

static uint64_t clock_ns(clockid_t clock)
{
	struct timespec ts;

	clock_gettime(clock, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static void pin_to_cpu(int cpu)
{
	cpu_set_t one;

	if (cpu < 0)
		return;
	CPU_ZERO(&one);
	CPU_SET(cpu, &one);
	if (sched_setaffinity(0, sizeof(one), &one))
		perror("stream-leaf: sched_setaffinity");
}

int main(int argc, char **argv)
{
	uint64_t calls, rate, done = 0, wall0, cpu0, wall, cpu;

	if (argc < 3 || argc > 4 || !(calls = strtoull(argv[1], NULL, 0))) {
		fprintf(stderr, "usage: %s CALLS RATE [CPU]\n"
			"  RATE: events per second (0: unpaced); CPU: pin to it\n",
			argv[0]);
		return 2;
	}
	rate = strtoull(argv[2], NULL, 0);
	pin_to_cpu(argc > 3 ? atoi(argv[3]) : -1);

	if (tracer_setup())
		return 1;
	sink += workload_leaf(WARMUP_CALLS);

	cpu0 = clock_ns(CLOCK_THREAD_CPUTIME_ID);
	wall0 = clock_ns(CLOCK_MONOTONIC);
	while (done < calls) {
		uint64_t n = calls - done < BATCH ? calls - done : BATCH;

		if (rate) {
			/* done calls = 2 * done events: due at wall0 + that / rate */
			uint64_t due = wall0 + (uint64_t)((double)(2 * done) * 1e9 / (double)rate);

			while (clock_ns(CLOCK_MONOTONIC) < due)
				;
		}
		sink += workload_leaf(n);
		done += n;
	}
	wall = clock_ns(CLOCK_MONOTONIC) - wall0;
	cpu = clock_ns(CLOCK_THREAD_CPUTIME_ID) - cpu0;
	printf("paced %llu %llu %llu %llu %llu\n", (unsigned long long)calls,
	       (unsigned long long)(calls * WORKLOAD_EVENTS_PER_CALL),
	       (unsigned long long)wall, (unsigned long long)cpu,
	       (unsigned long long)rate);
	fflush(stdout);
	return tracer_teardown() ? 1 : 0;
}
