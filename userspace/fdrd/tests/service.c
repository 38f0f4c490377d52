// SPDX-License-Identifier: MIT
/*
 * service.c - attach_test.sh's "service", built by fdr-cc: it answers a
 * request every millisecond (handle_request(): known work, every result
 * checked, so a register an attach or detach disturbed shows), and every
 * 50th request is slow (slow_request(), 30 ms: the planted slow call
 * the latency trigger must catch).  A second thread waits for stdin to
 * close, as a service's threads wait for work (a program that never made
 * a thread gets its first from the attach: glibc's lasting traces of
 * that are Documentation/fdrd.md's).  Runs until stdin closes, then prints
 * "0 wrong results" (the count of bad results): the same whether it was
 * recorded or not, and however long it ran.
 */
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <time.h>
#include <unistd.h>

#define SLOW_EVERY	50

__attribute__((noinline)) static unsigned long leaf(unsigned long x)
{
	return x * 2654435761u + 1;
}

/* its own sleep, and no tail call: the 30 ms are slow_request()'s */
__attribute__((noinline)) static void slow_request(void)
{
	struct timespec t = { 0, 30 * 1000 * 1000 };

	nanosleep(&t, NULL);
	__asm__ volatile("" ::: "memory");
}

__attribute__((noinline)) static unsigned long handle_request(unsigned long n)
{
	unsigned long s = 0;

	if (n % SLOW_EVERY == SLOW_EVERY / 2)
		slow_request();
	for (unsigned long i = 0; i < 20; i++)
		s += leaf(n + i);
	return s;
}

/* handle_request(n) computed without calls: what it must return */
static unsigned long expected(unsigned long n)
{
	unsigned long s = 0;

	for (unsigned long i = 0; i < 20; i++)
		s += (n + i) * 2654435761u + 1;
	return s;
}

static atomic_int closed;

static void *wait_for_close(void *unused)
{
	char c;

	(void)unused;
	while (read(0, &c, 1) > 0)
		;
	closed = 1;
	return NULL;
}

int main(void)
{
	struct timespec pause = { 0, 1000 * 1000 };
	unsigned long n = 0, wrong = 0;
	pthread_t t;

	if (pthread_create(&t, NULL, wait_for_close, NULL))
		return 2;
	while (!closed) {
		wrong += handle_request(n) != expected(n);
		n++;
		nanosleep(&pause, NULL);
	}
	pthread_join(t, NULL);
	printf("%lu wrong results\n", wrong);
	return wrong != 0;
}
