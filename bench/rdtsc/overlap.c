// SPDX-License-Identifier: MIT
/*
 * overlap.c - what work beside an rdtsc costs on this CPU.
 *
 * Each loop reads the TSC and stores it into a 64 KiB ring (the floor
 * loop of bench/), plus:
 *
 *   alu-dep     40 additions in 4 chains seeded from the TSC
 *   alu-indep   the same 40 additions on values that do not depend on it
 *   loads       20 loads of a small array (independent of the TSC)
 *   stores      4 more stores of the TSC
 *
 * and prints, for each, the fastest and the median ns per iteration over
 * the rounds (CPU time of the thread).  The record path of a tracer is
 * mostly loads and tests that do not depend on the TSC (its checks) and
 * stores that do (the record).  Where the core does not run that work in
 * the rdtsc's shadow (Intel Xeon model 207, 2026-12-07: 20 loads +4.5 ns
 * over the floor, 40 independent additions +2.4 ns, 4 stores nothing),
 * every load of the checks adds to the cost of an event.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#define ITERATIONS 20000000u
#define ROUNDS 9

static uint64_t ring[8192];
static volatile uint64_t small[64];
static volatile uint64_t sink;

static inline uint64_t tsc(void)
{
	return __builtin_ia32_rdtsc();
}

static double thread_ns(void)
{
	struct timespec t;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
	return t.tv_sec * 1e9 + t.tv_nsec;
}

#define ADD4(a, b, c, d) \
	__asm__("add $1,%0; add $1,%1; add $1,%2; add $1,%3" : "+r"(a), "+r"(b), "+r"(c), "+r"(d))

__attribute__((noinline)) static void floor_loop(void)
{
	for (unsigned i = 0; i < ITERATIONS; i++)
		ring[i & 8191] = tsc();
}

__attribute__((noinline)) static void alu_dep(void)
{
	uint64_t s = 0;

	for (unsigned i = 0; i < ITERATIONS; i++) {
		uint64_t t = tsc(), a = t, b = t, c = t, d = t;

		ring[i & 8191] = t;
		for (int k = 0; k < 10; k++)
			ADD4(a, b, c, d);
		s += a ^ b ^ c ^ d;
	}
	sink = s;
}

__attribute__((noinline)) static void alu_indep(void)
{
	uint64_t a = 1, b = 2, c = 3, d = 4;

	for (unsigned i = 0; i < ITERATIONS; i++) {
		ring[i & 8191] = tsc();
		for (int k = 0; k < 10; k++)
			ADD4(a, b, c, d);
	}
	sink = a + b + c + d;
}

__attribute__((noinline)) static void loads(void)
{
	uint64_t s = 0;

	for (unsigned i = 0; i < ITERATIONS; i++) {
		ring[i & 8191] = tsc();
		for (int k = 0; k < 20; k++)
			s += small[k];
	}
	sink = s;
}

__attribute__((noinline)) static void stores(void)
{
	for (unsigned i = 0; i < ITERATIONS; i++) {
		uint64_t t = tsc();

		ring[i & 8191] = t;
		ring[(i + 1024) & 8191] = t;
		ring[(i + 2048) & 8191] = t;
		ring[(i + 3072) & 8191] = t;
		small[1] = t;
	}
}

static int by_value(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

int main(void)
{
	static const struct {
		const char *name;
		void (*run)(void);
	} loop[] = {
		{ "floor", floor_loop }, { "alu-dep", alu_dep }, { "alu-indep", alu_indep },
		{ "loads", loads }, { "stores", stores },
	};
	enum { N = sizeof(loop) / sizeof(loop[0]) };
	double ns[N][ROUNDS];

	for (int r = 0; r < ROUNDS; r++)
		for (int i = 0; i < N; i++) {
			double t0 = thread_ns();

			loop[i].run();
			ns[i][r] = (thread_ns() - t0) / ITERATIONS;
		}
	printf("| loop | fastest ns | median ns | median − floor's |\n|---|---:|---:|---:|\n");
	qsort(ns[0], ROUNDS, sizeof(double), by_value);
	for (int i = 0; i < N; i++) {
		if (i)
			qsort(ns[i], ROUNDS, sizeof(double), by_value);
		printf("| %s | %.2f | %.2f | %+.2f |\n", loop[i].name, ns[i][0],
		       ns[i][ROUNDS / 2], ns[i][ROUNDS / 2] - ns[0][ROUNDS / 2]);
	}
	return 0;
}
