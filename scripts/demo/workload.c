// SPDX-License-Identifier: MIT
/*
 * workload.c - the program `make demo` traces: four threads walk a small
 * call tree.  Nothing in it knows about fdr; it is built with
 * `gcc -finstrument-functions` and linked with the adapter, which is the
 * whole integration.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

#define THREADS 4

static volatile unsigned long sink;

static void leaf(unsigned long i)
{
	for (unsigned long k = 0; k < 200; k++)
		sink += i ^ k;
}

static void parse_request(unsigned long i)
{
	leaf(i);
}

static void lookup_key(unsigned long i)
{
	leaf(i * 3);
	leaf(i * 5);
}

static void handle_request(unsigned long i)
{
	parse_request(i);
	lookup_key(i);
}

static void *worker(void *arg)
{
	unsigned long calls = (unsigned long)arg;

	for (unsigned long i = 0; i < calls; i++)
		handle_request(i);
	return NULL;
}

int main(int argc, char **argv)
{
	unsigned long calls = argc > 1 ? strtoul(argv[1], NULL, 0) : 2000;
	pthread_t th[THREADS];

	for (int t = 0; t < THREADS; t++)
		pthread_create(&th[t], NULL, worker, (void *)calls);
	for (int t = 0; t < THREADS; t++)
		pthread_join(th[t], NULL);
	printf("workload: %d threads x %lu requests done\n", THREADS, calls);
	return 0;
}
