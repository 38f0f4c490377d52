// SPDX-License-Identifier: MIT
/*
 * xray_traced.c - an ordinary program, built with clang-19
 * -fxray-instrument and linked with libfdr-xray.a + libfdr.a.  It has no
 * tracing code of its own: XRAY_OPTIONS="patch_premain=true xray_mode=fdr"
 * alone makes it record.  The only XRay construct is the custom-event
 * builtin, which needs a call site.
 *
 * The call sequence is fixed; xray_record_test.c expects exactly it.
 * `xray_traced threads` instead runs middle() 100 times in each of two
 * threads; `xray_traced crash` calls middle() once and dies in
 * crash_here() from SIGABRT; `xray_traced abi` prints what functions
 * with every kind of argument and return register compute (the output
 * must not depend on tracing); `xray_traced handover` finalizes the mode
 * and counts calls with a handler of its own (the sleds must reach XRay's
 * handler again); `xray_traced span` calls middle() SPAN_CALLS times
 * between two calls of with_arg() and prints the TSC it read just after
 * the first and just before the second (the records' timestamps must
 * cover that span when the calls between are erased).
 */
#include <complex.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <x86intrin.h>

#define ARG_VALUE	0x1234abcdL
#define EVENT		"checkpoint"

__attribute__((noinline)) int leaf_add(int a, int b)
{
	__asm__ volatile("" : "+r"(a));
	return a + b;
}

__attribute__((noinline)) int middle(int x)
{
	return leaf_add(x, 1) * leaf_add(x, 2);
}

/* Compiled to a jump into leaf_add: a TAIL sled. */
__attribute__((noinline)) int tail_caller(int x)
{
	return leaf_add(x, 3);
}

/* clang honours xray_log_args only on always-instrumented functions. */
__attribute__((noinline, xray_always_instrument, xray_log_args(1)))
long with_arg(long v)
{
	__asm__ volatile("" : "+r"(v));
	return v + 1;
}

#define THREAD_CALLS	100

/* ---- abi: arguments and results in every register class ---- */

struct pair { long a, b; };	/* returned in rax:rdx */

__attribute__((noinline)) long many_ints(long a, long b, long c, long d,
					 long e, long f, long g, long h)
{
	return a + 2 * b + 3 * c + 5 * d + 7 * e + 11 * f + 13 * g + 17 * h;
}

__attribute__((noinline)) double many_doubles(double a, double b, double c,
					      double d, double e, double f,
					      double g, double h, double i)
{
	return a - b * c + d / e - f * g + h - i;
}

__attribute__((noinline)) struct pair two_results(long x)
{
	return (struct pair){ x * 3, x ^ 0x5a5a };
}

__attribute__((noinline)) double complex complex_result(double x)
{
	return x + (x * 2) * I;
}

__attribute__((noinline)) long double x87_result(long double x)
{
	return x * 1.5L;
}

/* varargs: %al tells how many vector registers carry arguments */
__attribute__((noinline)) double va_sum(int n, ...)
{
	double sum = 0;
	va_list ap;

	va_start(ap, n);
	for (int i = 0; i < n; i++)
		sum += va_arg(ap, double);
	va_end(ap);
	return sum;
}

/* a tail call with all argument registers live */
__attribute__((noinline)) long tail_many(long a, long b, long c, long d,
					 long e, long f)
{
	return many_ints(f, e, d, c, b, a, 7, 8);
}

/* an arg-logging sled: its trampoline hands rdi to the arg1 handler */
__attribute__((noinline, xray_always_instrument, xray_log_args(1)))
double logged_many(long a, long b, long c, long d, long e, long f, double x)
{
	return (double)(a - b + c - d + e - f) * x;
}

static int abi(void)
{
	struct pair p = two_results(41);
	double complex z = complex_result(1.25);

	printf("%.17g ", logged_many(10, 3, 7, 2, 9, 4, 0.75));
	printf("%ld %.17g %ld %ld %.17g %.17g %.21Lg %.17g %ld\n",
	       many_ints(1, 2, 3, 4, 5, 6, 7, 8),
	       many_doubles(1.5, 2.25, 3.125, 4.0625, 5.5, 6.75, 7.875, 8.5, 9.25),
	       p.a, p.b, creal(z), cimag(z), x87_result(2.5L),
	       va_sum(5, 0.5, 1.5, 2.5, 3.5, 4.5), tail_many(1, 2, 3, 4, 5, 6));
	return 0;
}

/* ---- handover: after finalize, XRay's own handler path again ---- */

int __xray_set_handler(void (*entry)(int32_t, int));
int __xray_log_finalize(void);

static volatile int handled;

__attribute__((xray_never_instrument)) static void count_handler(int32_t fid,
								   int type)
{
	(void)fid;
	(void)type;
	handled++;
}

static int handover(void)
{
	long sum = middle(1);

	__xray_log_finalize();
	__xray_set_handler(count_handler);
	sum += middle(2);
	printf("%ld %d\n", sum, handled);
	return 0;
}

__attribute__((noinline)) void crash_here(int x)
{
	if (x > 0)
		abort();
}

static void *worker(void *arg)
{
	long sum = 0;

	for (int i = 0; i < THREAD_CALLS; i++)
		sum += middle(i);
	*(long *)arg = sum;
	return NULL;
}

static int two_threads(void)
{
	pthread_t t[2];
	long sums[2];

	for (int i = 0; i < 2; i++)
		if (pthread_create(&t[i], NULL, worker, &sums[i]))
			return 1;
	for (int i = 0; i < 2; i++)
		pthread_join(t[i], NULL);
	printf("%ld\n", sums[0] + sums[1]);
	return 0;
}

#define SPAN_CALLS	1000

static int span(void)
{
	long sum = with_arg(ARG_VALUE);
	unsigned long long from = __rdtsc(), to;

	for (int i = 0; i < SPAN_CALLS; i++)
		sum += middle(i);
	to = __rdtsc();
	sum += with_arg(ARG_VALUE);
	printf("%llu %llu %ld\n", from, to, sum);
	return 0;
}

int main(int argc, char **argv)
{
	static const char event[] = EVENT;
	long sum = 0;

	if (argc > 1 && strcmp(argv[1], "threads") == 0)
		return two_threads();
	if (argc > 1 && strcmp(argv[1], "abi") == 0)
		return abi();
	if (argc > 1 && strcmp(argv[1], "handover") == 0)
		return handover();
	if (argc > 1 && strcmp(argv[1], "span") == 0)
		return span();
	if (argc > 1 && strcmp(argv[1], "crash") == 0) {
		crash_here(middle(1));
		return 0;
	}
	for (int i = 0; i < 3; i++)
		sum += middle(i);
	sum += with_arg(ARG_VALUE);
	sum += tail_caller(4);
	__xray_customevent(event, sizeof(event) - 1);
	printf("%ld\n", sum);
	return 0;
}
