/* SPDX-License-Identifier: MIT */
/*
 * harness.c - runs the workload under whatever tracer it is linked with
 * and prints one line per workload on stdout:
 *
 *   <workload> <calls> <events> <wall_ns> <cpu_ns>
 *
 * workloads: leaf (workload_leaf), tree (workload_tree), threads (two
 * threads each running workload_leaf at the same time, each pinned to a
 * CPU of its own when there are two: "two threads on two cores"; wall
 * time from their common start to the last one's end).
 *
 * cpu_ns is the CPU time of the calling thread for leaf and tree
 * (CLOCK_THREAD_CPUTIME_ID: time the thread spent preempted by other work
 * on a shared machine does not count), and of the whole process for
 * threads.
 *
 * This file is compiled without instrumentation: only the workload's own
 * calls are traced.
 */
#include <pthread.h>
#include <sched.h>
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

static uint64_t clock_ns(clockid_t clock)
{
	struct timespec ts;

	clock_gettime(clock, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* Wall and CPU time at the start of a timed region. */
struct stamp {
	uint64_t wall, cpu;
	clockid_t cpu_clock;
};

static struct stamp stamp_start(clockid_t cpu_clock)
{
	struct stamp s = { .cpu_clock = cpu_clock };

	s.cpu = clock_ns(cpu_clock);
	s.wall = clock_ns(CLOCK_MONOTONIC);
	return s;
}

static void report(const char *name, uint64_t calls, const struct stamp *s)
{
	uint64_t wall = clock_ns(CLOCK_MONOTONIC) - s->wall;
	uint64_t cpu = clock_ns(s->cpu_clock) - s->cpu;

	printf("%s %llu %llu %llu %llu\n", name, (unsigned long long)calls,
	       (unsigned long long)(calls * WORKLOAD_EVENTS_PER_CALL),
	       (unsigned long long)wall, (unsigned long long)cpu);
	fflush(stdout);
}

struct thread_arg {
	pthread_barrier_t *start;
	uint64_t calls;
	uint64_t result;	/* per thread: no shared write while timed */
	int cpu;
};

/* Pin to the cpu-th CPU this process may run on, if there is one: the
 * scheduler then cannot put both workers on one core for a while. */
static void pin_to_nth_cpu(int cpu)
{
	cpu_set_t allowed, one;
	int seen = 0;

	if (sched_getaffinity(0, sizeof(allowed), &allowed) ||
	    CPU_COUNT(&allowed) < THREADS)
		return;
	for (int c = 0; c < CPU_SETSIZE; c++) {
		if (!CPU_ISSET(c, &allowed) || seen++ != cpu)
			continue;
		CPU_ZERO(&one);
		CPU_SET(c, &one);
		sched_setaffinity(0, sizeof(one), &one);
		return;
	}
}

static void *leaf_thread(void *p)
{
	struct thread_arg *a = p;

	pin_to_nth_cpu(a->cpu);
	a->result = workload_leaf(WARMUP_CALLS);
	pthread_barrier_wait(a->start);
	a->result += workload_leaf(a->calls);
	return NULL;
}

static int run_threads(uint64_t calls)
{
	pthread_t tid[THREADS];
	pthread_barrier_t start;
	struct thread_arg arg[THREADS];
	struct stamp t0;
	int i, err;

	pthread_barrier_init(&start, NULL, THREADS + 1);
	for (i = 0; i < THREADS; i++) {
		arg[i] = (struct thread_arg){ .start = &start, .calls = calls,
					      .cpu = i };
		err = pthread_create(&tid[i], NULL, leaf_thread, &arg[i]);
		if (err) {
			fprintf(stderr, "pthread_create: %s\n", strerror(err));
			exit(1);
		}
	}
	pthread_barrier_wait(&start);
	t0 = stamp_start(CLOCK_PROCESS_CPUTIME_ID);
	for (i = 0; i < THREADS; i++)
		pthread_join(tid[i], NULL);
	report("threads", calls * THREADS, &t0);
	for (i = 0; i < THREADS; i++)
		sink += arg[i].result;
	pthread_barrier_destroy(&start);
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
	uint64_t calls, roots;
	struct stamp t0;
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
			t0 = stamp_start(CLOCK_THREAD_CPUTIME_ID);
			sink += workload_leaf(calls);
			report("leaf", calls, &t0);
		} else if (!strcmp(which[i], "tree")) {
			t0 = stamp_start(CLOCK_THREAD_CPUTIME_ID);
			sink += workload_tree(roots);
			report("tree", roots * WORKLOAD_TREE_CALLS, &t0);
		} else if (!strcmp(which[i], "threads")) {
			run_threads(calls);
		} else {
			usage(argv[0]);
		}
	}
	return tracer_teardown() ? 1 : 0;
}
