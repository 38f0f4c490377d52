// SPDX-License-Identifier: MIT
/*
 * cyg_calls.c - per-call cost of a gcc -finstrument-functions leaf
 * recorded through libfdr-cyg.a (FDR_TARGET, FDR_OPTIONS from run.sh).
 * Prints "cyg <calls> <elapsed_ns>" like calls.c.  Only leaf() is
 * instrumented.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#define NEVER		__attribute__((no_instrument_function))
#define WARMUP_CALLS	200000

__attribute__((noinline)) uint64_t leaf(uint64_t x)
{
	__asm__ volatile("" : "+r"(x));
	return x * 3 + 1;
}

NEVER static uint64_t now_ns(void)
{
	struct timespec ts;

	/* CPU time of this thread: time spent preempted by other load on
	 * this shared machine is not charged to the call being measured */
	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

NEVER static uint64_t loop(uint64_t calls)
{
	uint64_t acc = 0;

	for (uint64_t i = 0; i < calls; i++)
		acc += leaf(i);
	return acc;
}

NEVER int main(int argc, char **argv)
{
	uint64_t calls, t0, t1;
	volatile uint64_t sink;

	if (argc != 2 || (calls = strtoull(argv[1], NULL, 10)) == 0) {
		fprintf(stderr, "usage: cyg_calls CALLS\n");
		return 2;
	}
	sink = loop(WARMUP_CALLS);
	t0 = now_ns();
	sink = loop(calls);
	t1 = now_ns();
	(void)sink;
	printf("cyg %llu %llu\n", (unsigned long long)calls,
	       (unsigned long long)(t1 - t0));
	return 0;
}
