// SPDX-License-Identifier: MIT
/*
 * attach_malloc.c - the program of attach_test.sh's "malloc" check: its
 * main thread allocates and frees all the time (sizes past the per-thread
 * cache, so that each call takes the arena's lock), and a reader thread
 * waits in read(2) on stdin.  A recorder that makes the main thread call
 * fdr_attach_entry wherever it stopped it would, most of the time, find
 * it inside malloc with the lock held, and "start" (which allocates)
 * would wait for that lock for ever; fdr record -p must call from the
 * reader instead.  It runs until stdin closes, then prints the checksum
 * of what it wrote, the same traced or not.
 */
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static atomic_int done;

__attribute__((noinline)) static unsigned long churn(unsigned long r)
{
	size_t size = 2048 + (r * 7919) % 60000;	/* past tcache, under mmap */
	unsigned char *p = malloc(size);
	unsigned long sum = 0;

	if (!p)
		return 0;
	memset(p, (int)(r & 0xff), size);
	sum = p[size / 2] + size;
	free(p);
	return sum;
}

static void *reader(void *unused)
{
	char buf[64];

	(void)unused;
	while (read(0, buf, sizeof(buf)) > 0)
		;
	atomic_store(&done, 1);
	return NULL;
}

int main(void)
{
	unsigned long sum = 0, want = 0, r;
	pthread_t rd;

	pthread_create(&rd, NULL, reader, NULL);
	for (r = 0; !atomic_load(&done); r++) {
		size_t size = 2048 + (r * 7919) % 60000;

		sum += churn(r);
		want += (r & 0xff) + size;
	}
	pthread_join(rd, NULL);
	printf("malloc: %s\n", sum == want ? "all sums right" : "wrong sums");
	return 0;
}
