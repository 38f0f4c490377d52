// SPDX-License-Identifier: MIT
/*
 * account_program.c - one program, built two ways by run_account.sh, so
 * that llvm-xray-19 account's verdict on compiler-rt's own FDR log and on
 * fdr's log of the same run shape can be compared:
 *
 *   clang-19 -fxray-instrument -fxray-instruction-threshold=1 -DCRT_FDR
 *       compiler-rt's xray-fdr mode, started and flushed here (it has no
 *       environment switch for FDR: xray_log_interface.h);
 *   clang-19 -fxray-instrument -fxray-instruction-threshold=1 + libfdr-xray
 *       fdr's XRay mode, started by XRAY_OPTIONS=xray_mode=fdr.
 *
 *   account_program THREADS CALLS
 * main calls run(CALLS) itself, then THREADS threads (one after the other
 * joined: their order in the log is fixed) each call run(CALLS).
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

static volatile int sink;
static int calls;

__attribute__((noinline)) void leaf(int x)
{
	sink += x;
}

__attribute__((noinline)) void branch(int x)
{
	leaf(x);
	leaf(x + 1);
}

__attribute__((noinline)) void run(int n)
{
	for (int i = 0; i < n; i++)
		branch(i);
}

__attribute__((noinline)) void *thread_main(void *arg)
{
	(void)arg;
	run(calls);
	return NULL;
}

#ifdef CRT_FDR
enum { XRAY_LOG_INITIALIZED = 2, XRAY_LOG_FINALIZED = 4, XRAY_LOG_FLUSHED = 2 };
int __xray_log_select_mode(const char *mode);
int __xray_log_init_mode(const char *mode, const char *config);
int __xray_patch(void);
int __xray_log_finalize(void);
int __xray_log_flushLog(void);

static void start(void)
{
	if (__xray_log_select_mode("xray-fdr") != 0 ||
	    __xray_log_init_mode("xray-fdr", "func_duration_threshold_us=0:buffer_max=256") !=
		    XRAY_LOG_INITIALIZED) {
		fprintf(stderr, "account_program: cannot initialize xray-fdr\n");
		exit(1);
	}
	__xray_patch();
}

static void stop(void)
{
	if (__xray_log_finalize() != XRAY_LOG_FINALIZED || __xray_log_flushLog() != XRAY_LOG_FLUSHED) {
		fprintf(stderr, "account_program: finalize/flush failed\n");
		exit(1);
	}
}
#else
static void start(void) {}	/* XRAY_OPTIONS="patch_premain=true xray_mode=fdr" */
static void stop(void) {}
#endif

int main(int argc, char **argv)
{
	int threads;

	if (argc != 3)
		return 2;
	threads = atoi(argv[1]);
	calls = atoi(argv[2]);
	start();
	run(calls);
	for (int t = 0; t < threads; t++) {
		pthread_t th;

		pthread_create(&th, NULL, thread_main, NULL);
		pthread_join(th, NULL);
	}
	stop();
	return 0;
}
