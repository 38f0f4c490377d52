// SPDX-License-Identifier: MIT
/*
 * calls.c - CALLS calls of one function, timed with the thread's CPU
 * clock (other load on a shared machine does not count); prints the
 * nanoseconds per call.  Built twice (Makefile): calling bench_nop in a
 * shared library (library-call tracing), and calling the same body
 * compiled into the program with XRay sleds (fdr's XRay mode).
 */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#ifdef LOCAL
__attribute__((noinline)) int bench_nop(int x)
{
	return x + 1;
}
#else
int bench_nop(int x);
#endif

static double now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return ts.tv_sec * 1e9 + ts.tv_nsec;
}

int main(int argc, char **argv)
{
	long calls = argc > 1 ? atol(argv[1]) : 1000000;
	volatile int sink = 0;
	double t0 = now_ns();

	for (long i = 0; i < calls; i++)
		sink = bench_nop(sink);
	printf("%.2f\n", (now_ns() - t0) / (double)calls);
	return sink == (int)calls ? 0 : 1;
}
