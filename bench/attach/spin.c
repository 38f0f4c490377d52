// SPDX-License-Identifier: MIT
/*
 * spin.c - bench/attach's program: rounds of CALLS calls of one small
 * instrumented function for SECONDS seconds; per round one line,
 * "START_NS END_NS NS_PER_CALL" (CLOCK_REALTIME bounds, so run.sh can
 * tell which rounds an attach window covered; thread CPU time per call).
 */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

__attribute__((noinline)) static unsigned long leaf(unsigned long x)
{
	return x * 2654435761u + 1;
}

static long long ns(clockid_t c)
{
	struct timespec t;

	clock_gettime(c, &t);
	return t.tv_sec * 1000000000ll + t.tv_nsec;
}

int main(int argc, char **argv)
{
	double seconds = argc > 1 ? atof(argv[1]) : 3;
	long calls = argc > 2 ? atol(argv[2]) : 1000000;
	long long end = ns(CLOCK_REALTIME) + (long long)(seconds * 1e9);
	unsigned long x = 1;

	while (ns(CLOCK_REALTIME) < end) {
		long long w0 = ns(CLOCK_REALTIME), c0 = ns(CLOCK_THREAD_CPUTIME_ID);

		for (long i = 0; i < calls; i++)
			x = leaf(x);
		printf("%lld %lld %.2f\n", w0, ns(CLOCK_REALTIME),
		       (double)(ns(CLOCK_THREAD_CPUTIME_ID) - c0) / (double)calls);
		fflush(stdout);
	}
	return x == 0;	/* keeps the calls */
}
