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
 * crash_here() from SIGABRT.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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

int main(int argc, char **argv)
{
	static const char event[] = EVENT;
	long sum = 0;

	if (argc > 1 && strcmp(argv[1], "threads") == 0)
		return two_threads();
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
