// SPDX-License-Identifier: MIT
/*
 * xray_program.c - a small program built at test time with
 *   clang-19 -fxray-instrument -fxray-instruction-threshold=1 -fxray-modes=xray-fdr
 * to get real FDR logs from today's compiler-rt (version 5): nested calls,
 * a tail call, logged arguments, custom events, a second thread.
 * Run with XRAY_OPTIONS="xray_logfile_base=<dir>/ verbosity=1".
 */
#include <pthread.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* compiler-rt's interface, declared in C (the format draft ../shared/FORMAT.md §6). */
enum { XRAY_LOG_INITIALIZED = 2, XRAY_LOG_FINALIZED = 4, XRAY_LOG_FLUSHED = 2 };
int __xray_log_select_mode(const char *mode);
int __xray_log_init_mode(const char *mode, const char *config);
int __xray_patch(void);
int __xray_log_finalize(void);
int __xray_log_flushLog(void);

static volatile int sink;

__attribute__((noinline)) int leaf(int x)
{
	sink += x;
	return x * 2;
}

__attribute__((noinline)) int middle(int x)
{
	int r = 0;

	for (int i = 0; i < x; i++)
		r += leaf(i);
	return r;
}

__attribute__((noinline)) int tail_caller(int x)
{
	return middle(x + 1);	/* a tail call at -O2 */
}

__attribute__((noinline, xray_always_instrument, xray_log_args(1))) int with_arg(int x)
{
	return leaf(x) + 1;
}

static void *worker(void *arg)
{
	(void)arg;
	for (int i = 0; i < 3; i++)
		sink += middle(2) + with_arg(i);
	return NULL;
}

int main(void)
{
	pthread_t t;

	if (__xray_log_select_mode("xray-fdr") != 0 ||
	    __xray_log_init_mode("xray-fdr", "func_duration_threshold_us=0") != XRAY_LOG_INITIALIZED) {
		fprintf(stderr, "xray_program: cannot initialize xray-fdr mode\n");
		return 1;
	}
	__xray_patch();
	pthread_create(&t, NULL, worker, NULL);
	for (int i = 0; i < 4; i++)
		sink += tail_caller(i) + with_arg(100 + i);
	{
		static const char hello[] = "hello, xray";
		static const char quote[] = "quote ' and \"";

		__xray_customevent(hello, sizeof(hello) - 1);
		__xray_customevent(quote, sizeof(quote) - 1);
	}
	pthread_join(t, NULL);
	if (__xray_log_finalize() != XRAY_LOG_FINALIZED || __xray_log_flushLog() != XRAY_LOG_FLUSHED) {
		fprintf(stderr, "xray_program: finalize/flush failed\n");
		return 1;
	}
	return 0;
}
