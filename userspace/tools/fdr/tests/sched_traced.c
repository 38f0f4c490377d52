// SPDX-License-Identifier: MIT
/*
 * sched_traced.c - a program whose calls wait or compute, for the
 * scheduling-record tests (built with fdr-cc, no tracing code):
 *
 *   waits-spins   waits() sleeps 2 ms in nanosleep, 100 times; spins()
 *                 computes for 2 ms, 100 times
 *   pingpong N    two threads pass a byte N times through two pipes;
 *                 ping() and pong() each wait for the other thread
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static volatile unsigned long sink;
static int ab[2], ba[2];
static long rounds;

/* Not instrumented: spins() calls it thousands of times per call. */
__attribute__((no_instrument_function)) static double now_ms(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec * 1e3 + t.tv_nsec / 1e6;
}

__attribute__((noinline)) static void waits(void)
{
	struct timespec ts = { 0, 2000000 };

	nanosleep(&ts, NULL);
}

__attribute__((noinline)) static void spins(void)
{
	double end = now_ms() + 2.0;

	while (now_ms() < end)
		sink++;
}

__attribute__((noinline)) static void pong(void)
{
	char c;

	if (read(ab[0], &c, 1) != 1 || write(ba[1], &c, 1) != 1)
		exit(1);
}

__attribute__((noinline)) static void ping(void)
{
	char c = 'x';

	if (write(ab[1], &c, 1) != 1 || read(ba[0], &c, 1) != 1)
		exit(1);
}

static void *ponger(void *arg)
{
	(void)arg;
	for (long i = 0; i < rounds; i++)
		pong();
	return NULL;
}

int main(int argc, char **argv)
{
	const char *mode = argc > 1 ? argv[1] : "";
	pthread_t t;

	if (!strcmp(mode, "waits-spins")) {
		for (int i = 0; i < 100; i++)
			waits();
		for (int i = 0; i < 100; i++)
			spins();
		return 0;
	}
	if (!strcmp(mode, "pingpong") && argc > 2) {
		rounds = atol(argv[2]);
		if (pipe(ab) || pipe(ba) || pthread_create(&t, NULL, ponger, NULL))
			return 1;
		for (long i = 0; i < rounds; i++)
			ping();
		pthread_join(t, NULL);
		return 0;
	}
	fprintf(stderr, "usage: sched_traced waits-spins | pingpong N\n");
	return 2;
}
