/* SPDX-License-Identifier: MIT */
/*
 * harness.c - runs the workload under whatever tracer it is linked with
 * and prints one line per workload on stdout:
 *
 *   <workload> <calls> <events> <elapsed_ns>
 *
 * workloads: leaf (workload_leaf), tree (workload_tree), threads (two
 * threads each running workload_leaf at the same time; elapsed is wall
 * time from their common start to the last one's end).
 *
 * This file is compiled without instrumentation: only the workload's own
 * calls are traced.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "tracer.h"
#include "workload.h"

#define THREADS 2
/* Warm-up calls: the first events take a buffer and fault its pages in. */
#define WARMUP_CALLS 20000

static volatile uint64_t sink;

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static void report(const char *name, uint64_t calls, uint64_t ns)
{
	printf("%s %llu %llu %llu\n", name, (unsigned long long)calls,
	       (unsigned long long)(calls * WORKLOAD_EVENTS_PER_CALL),
	       (unsigned long long)ns);
	fflush(stdout);
}

struct thread_arg {
	pthread_barrier_t *start;
	uint64_t calls;
};

static void *leaf_thread(void *p)
{
	struct thread_arg *a = p;

	sink += workload_leaf(WARMUP_CALLS);
	pthread_barrier_wait(a->start);
	sink += workload_leaf(a->calls);
	return NULL;
}

static int run_threads(uint64_t calls)
{
	pthread_t tid[THREADS];
	pthread_barrier_t start;
	struct thread_arg arg = { .start = &start, .calls = calls };
	uint64_t t0, t1;
	int i, err;

	pthread_barrier_init(&start, NULL, THREADS + 1);
	for (i = 0; i < THREADS; i++) {
		err = pthread_create(&tid[i], NULL, leaf_thread, &arg);
		if (err) {
			fprintf(stderr, "pthread_create: %s\n", strerror(err));
			exit(1);
		}
	}
	pthread_barrier_wait(&start);
	t0 = now_ns();
	for (i = 0; i < THREADS; i++)
		pthread_join(tid[i], NULL);
	t1 = now_ns();
	pthread_barrier_destroy(&start);
	report("threads", calls * THREADS, t1 - t0);
	return 0;
}

static void usage(const char *prog)
{
	fprintf(stderr, "usage: %s CALLS [leaf|tree|threads]...\n"
		"  CALLS: traced calls per workload (per thread for threads)\n",
		prog);
	exit(2);
}

int main(int argc, char **argv)
{
	static const char *const all[] = { "leaf", "tree", "threads" };
	const char *const *which = all;
	uint64_t calls, roots, t0;
	int n = 3, i;

	if (argc < 2)
		usage(argv[0]);
	calls = strtoull(argv[1], NULL, 0);
	if (calls == 0)
		usage(argv[0]);
	if (argc > 2) {
		which = (const char *const *)&argv[2];
		n = argc - 2;
	}
	roots = (calls + WORKLOAD_TREE_CALLS - 1) / WORKLOAD_TREE_CALLS;

	if (tracer_setup())
		return 1;
	sink += workload_leaf(WARMUP_CALLS);
	sink += workload_tree(WARMUP_CALLS / WORKLOAD_TREE_CALLS);

	for (i = 0; i < n; i++) {
		if (!strcmp(which[i], "leaf")) {
			t0 = now_ns();
			sink += workload_leaf(calls);
			report("leaf", calls, now_ns() - t0);
		} else if (!strcmp(which[i], "tree")) {
			t0 = now_ns();
			sink += workload_tree(roots);
			report("tree", roots * WORKLOAD_TREE_CALLS, now_ns() - t0);
		} else if (!strcmp(which[i], "threads")) {
			run_threads(calls);
		} else {
			usage(argv[0]);
		}
	}
	return tracer_teardown() ? 1 : 0;
}
