// SPDX-License-Identifier: MIT
/*
 * traced.c - the program the fdr tests record, built with fdr-cc (no
 * tracing code).  Every mode makes a known number of calls:
 *
 *   calls          main 1, work 1, middle 4, leaf 12
 *   exit N         the calls, then exit(N)
 *   signal N       the calls, then raise(N)
 *   segv           the calls, then crash_here() faults: its Enter is the
 *                  thread's last record
 *   fork-outlive   the calls; a child sleeps 100 ms after the parent
 *                  exited, then calls child_late 5 times
 *   exec [PROG]    the calls, then exec "traced calls" (the same binary),
 *                  or PROG with no argument
 *   threads        threads 1; 4 threads, each thread_body 1, leaf 10
 *   sleep MS       the calls, then sleep MS (for the concurrency test)
 *   many N         the calls, then leaf N more times (a big log)
 *   fib N          the calls, then fib(N), recursive: 2 F(N+1) - 1 calls
 *   deep N         the calls, then deep(N): N + 1 calls nested N deep
 *   bursts K N     the calls, then K times: leaf N times and a pause of
 *                  200 ms (nanosleep, not a traced call): a streaming
 *                  flusher has the CPUs to itself between bursts
 *   stall          the calls, then stall once (to learn stall's id)
 *   outlier        the calls, then tick (10 us) 10,000 times with one
 *                  stall (20 ms, or $TRACED_STALL_MS) before the 5,001st:
 *                  the trigger tests
 *
 * $TRACED_CPU=N: the program runs on CPU N only (sched_setaffinity in
 * main, no traced call): the stream's thread follows it there.
 */
#define _GNU_SOURCE	/* sched_setaffinity */
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static volatile int sink;

__attribute__((noinline)) static int leaf(int x)
{
	sink += x;
	return x + 1;
}

__attribute__((noinline)) static int middle(int x)
{
	return leaf(x) + leaf(x + 1) + leaf(x + 2);
}

__attribute__((noinline)) static void work(void)
{
	for (int i = 0; i < 4; i++)
		sink += middle(i);
}

__attribute__((noinline)) static void crash_here(volatile int *p)
{
	*p = 1;
}

__attribute__((noinline)) static void child_late(void)
{
	sink++;
}

__attribute__((noinline)) static void *thread_body(void *arg)
{
	for (int i = 0; i < 10; i++)
		leaf(i);
	return arg;
}

/* The clock read of tick() is not itself a traced call. */
#ifdef __clang__
#define NOT_TRACED __attribute__((no_instrument_function, xray_never_instrument))
#else
#define NOT_TRACED __attribute__((no_instrument_function))
#endif

NOT_TRACED static long now_ns(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec * 1000000000L + t.tv_nsec;
}

__attribute__((noinline)) static void tick(void)
{
	long end = now_ns() + 10000;

	while (now_ns() < end)
		sink++;
}

static void sleep_ms(long ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000 };

	nanosleep(&ts, NULL);
}

/*
 * nanosleep itself, not sleep_ms(): the slow call must be stall's.  The
 * tests of a trigger on any function make it long, so that no tick a
 * loaded machine preempts can last as long.
 */
__attribute__((noinline)) static void stall(void)
{
	const char *env = getenv("TRACED_STALL_MS");
	long ms = env ? atol(env) : 20;
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000 };

	nanosleep(&ts, NULL);
}

/* The store after both calls keeps them calls: no accumulator loop. */
/* n levels of recursion (fdr replay's indentation past its last column) */
__attribute__((noinline)) static int deep(int n)
{
	int r = n ? deep(n - 1) + 1 : 0;

	sink = r;
	return r;
}

__attribute__((noinline)) static int fib(int n)
{
	int r = n < 2 ? n : fib(n - 1) + fib(n - 2);

	sink = r;
	return r;
}

static void outlier(void)
{
	for (int i = 0; i < 10000; i++) {
		if (i == 5000)
			stall();
		tick();
	}
}

static void fork_outlive(void)
{
	if (fork() == 0) {
		sleep_ms(100);
		for (int i = 0; i < 5; i++)
			child_late();
		_exit(0);
	}
}

__attribute__((noinline)) static int threads(void)
{
	pthread_t t[4];

	for (int i = 0; i < 4; i++)
		if (pthread_create(&t[i], NULL, thread_body, NULL))
			return 1;
	for (int i = 0; i < 4; i++)
		pthread_join(t[i], NULL);
	return 0;
}

int main(int argc, char **argv)
{
	const char *mode = argc > 1 ? argv[1] : "calls";
	const char *cpu = getenv("TRACED_CPU");

	if (cpu) {
		cpu_set_t one;

		CPU_ZERO(&one);
		CPU_SET(atoi(cpu), &one);
		if (sched_setaffinity(0, sizeof(one), &one))
			perror("sched_setaffinity");
	}
	if (!strcmp(mode, "threads"))
		return threads();
	work();
	if (!strcmp(mode, "exit") && argc > 2)
		exit(atoi(argv[2]));
	if (!strcmp(mode, "signal") && argc > 2)
		raise(atoi(argv[2]));
	if (!strcmp(mode, "segv"))
		crash_here(NULL);
	if (!strcmp(mode, "fork-outlive"))
		fork_outlive();
	if (!strcmp(mode, "exec")) {
		if (argc > 2)
			execl(argv[2], argv[2], (char *)NULL);
		else
			execl("/proc/self/exe", argv[0], "calls", (char *)NULL);
		perror("exec");
		return 1;
	}
	if (!strcmp(mode, "many") && argc > 2)
		for (long i = atol(argv[2]); i > 0; i--)
			leaf((int)i);
	if (!strcmp(mode, "deep") && argc > 2)
		deep(atoi(argv[2]));
	if (!strcmp(mode, "fib") && argc > 2)
		fib(atoi(argv[2]));
	if (!strcmp(mode, "bursts") && argc > 3) {
		const struct timespec pause = { 0, 200 * 1000000L };

		for (long k = atol(argv[2]); k > 0; k--) {
			for (long i = atol(argv[3]); i > 0; i--)
				leaf((int)i);
			nanosleep(&pause, NULL);
		}
	}
	if (!strcmp(mode, "stall"))
		stall();
	if (!strcmp(mode, "outlier"))
		outlier();
	if (!strcmp(mode, "sleep") && argc > 2)
		sleep_ms(atol(argv[2]));
	return 0;
}
