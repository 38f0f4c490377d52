// SPDX-License-Identifier: MIT
/*
 * recorder.c - test program: attach to a target through libfdr and record
 * known calls from several threads with fdr_enter/fdr_exit.
 *
 *   recorder TARGET THREADS CALLS [crash | rate=EVENTS_PER_S | bursts=K]
 *
 * Thread t (0-based), named "rec-<t+1>", makes CALLS calls of function t+1, each a matching
 * Enter/Exit pair.  Run it with FDR_OPTIONS=func_duration_threshold_us=0
 * so no call is rewound.  Prints "tid fid calls" per thread on stdout.
 * With "crash", the threads keep their buffers and the process then dies
 * from SIGSEGV (the module's crash finalize).  With rate=N each thread
 * paces itself to N events (Enter or Exit) per second, in steps of 1 ms.
 * With bursts=K each thread makes its calls in K bursts, 200 ms apart
 * (nanosleep): a flusher has the CPUs to itself in between.
 */
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/prctl.h>
#include <sys/syscall.h>

#include <fdr.h>

static long calls;
static int crash;
static double rate;	/* events per second per thread; 0: as fast as it can */
static long bursts;	/* 0 or 1: one burst */

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* Wait until call i is due: 2 events per call, checked every 500 calls. */
static void pace(long i, double t0)
{
	double due;

	if (!rate || i % 500)
		return;
	due = t0 + (double)(2 * i) / rate;
	while (now_s() < due)
		usleep(200);
}

static void *run(void *arg)
{
	int32_t fid = (int32_t)(long)arg;
	char name[16];

	snprintf(name, sizeof(name), "rec-%d", fid);
	prctl(PR_SET_NAME, name);	/* before the first record: the owner note */
	double t0 = now_s();

	for (long i = 0; i < calls; i++) {
		pace(i, t0);
		if (bursts > 1 && i && i % ((calls + bursts - 1) / bursts) == 0) {
			const struct timespec pause = { 0, 200 * 1000000L };

			nanosleep(&pause, NULL);
		}
		fdr_enter(fid);
		fdr_exit(fid);
	}
	if (!crash)
		fdr_thread_release();
	printf("%ld %d %ld\n", (long)syscall(SYS_gettid), fid, calls);
	return NULL;
}

int main(int argc, char **argv)
{
	pthread_t th[64];
	long n;

	if (argc == 5 && !strncmp(argv[4], "rate=", 5))
		rate = atof(argv[4] + 5);
	else if (argc == 5 && !strncmp(argv[4], "bursts=", 7))
		bursts = atol(argv[4] + 7);
	else if (argc == 5 && !strcmp(argv[4], "crash"))
		crash = 1;
	else if (argc != 4) {
		fprintf(stderr, "usage: recorder TARGET THREADS CALLS [crash | rate=N | bursts=K]\n");
		return 2;
	}
	n = atol(argv[2]);
	calls = atol(argv[3]);
	if (n < 1 || n > 64 || fdr_attach(argv[1]))
		return 1;
	for (long t = 0; t < n; t++)
		pthread_create(&th[t], NULL, run, (void *)(t + 1));
	for (long t = 0; t < n; t++)
		pthread_join(th[t], NULL);
	fflush(stdout);
	if (crash) {
		fdr_enter(100);	/* the main thread holds a buffer too */
		raise(SIGSEGV);
	}
	fdr_detach();
	return 0;
}
