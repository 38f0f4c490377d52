// SPDX-License-Identifier: MIT
/*
 * attach_worker.c - the running program of attach_test.sh: threads doing
 * known work (every result checked against its known value, so a register
 * or a byte that an attach or detach disturbed shows in the output), a
 * main thread that also works, short-lived threads created all along, a
 * thread blocked in read(2) on stdin for the whole run, and a planted slow
 * call (slow(), 30 ms, in work0 every 200 rounds) for the trigger.  It
 * runs until stdin closes, then prints one line per thread: the output
 * does not depend on how long it ran, traced or not.
 */
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <time.h>
#include <unistd.h>

#define WORKERS		4
#define ROUND_CALLS	40

static atomic_int done;
static atomic_ulong errors[WORKERS + 1];

__attribute__((noinline)) static unsigned long leaf(unsigned long x)
{
	return x * 2654435761u + 1;
}

__attribute__((noinline)) static unsigned long mid(unsigned long x)
{
	unsigned long s = 0;

	for (int i = 0; i < ROUND_CALLS; i++)
		s += leaf(x + (unsigned long)i);
	return s;
}

/* mid(x) computed without calls: what it must return */
static unsigned long expected(unsigned long x)
{
	unsigned long s = 0;

	for (int i = 0; i < ROUND_CALLS; i++)
		s += (x + (unsigned long)i) * 2654435761u + 1;
	return s;
}

__attribute__((noinline)) static void pause_ms(long ms)
{
	struct timespec ts = { 0, ms * 1000000 };

	nanosleep(&ts, NULL);
}

/* its own sleep, and no tail call: the 30 ms are slow()'s */
__attribute__((noinline)) static void slow(void)
{
	struct timespec ts = { 0, 30 * 1000000 };

	nanosleep(&ts, NULL);
	__asm__ volatile("" ::: "memory");
}

__attribute__((noinline)) static void round_of(int id, unsigned long r)
{
	unsigned long x = (unsigned long)id * 100000 + r;

	if (mid(x) != expected(x))
		errors[id]++;
	if (id == 0 && r % 200 == 100)
		slow();
	pause_ms(2);
}

static void *worker(void *p)
{
	int id = (int)(long)p;
	char name[16];

	snprintf(name, sizeof(name), "work%d", id);
	prctl(PR_SET_NAME, name);
	for (unsigned long r = 0; !atomic_load(&done); r++)
		round_of(id, r);
	return NULL;
}

/* short-lived: created while recording, exits while recording */
static void *ephemeral(void *p)
{
	prctl(PR_SET_NAME, "ephemeral");
	for (unsigned long r = 0; r < 5; r++)
		round_of(WORKERS, (unsigned long)p + r);
	return NULL;
}

/* blocked in read(2) until stdin closes */
__attribute__((noinline)) static void *reader(void *unused)
{
	char buf[64];

	(void)unused;
	prctl(PR_SET_NAME, "reader");
	while (read(0, buf, sizeof(buf)) > 0)
		;
	atomic_store(&done, 1);
	return NULL;
}

int main(void)
{
	pthread_t t[WORKERS], rd, e;
	unsigned long r;

	prctl(PR_SET_NAME, "work-main");
	pthread_create(&rd, NULL, reader, NULL);
	for (long i = 0; i < WORKERS / 2; i++)
		pthread_create(&t[i], NULL, worker, (void *)i);
	for (r = 0; !atomic_load(&done); r++) {
		round_of(WORKERS, r);
		if (r == 100)	/* later threads */
			for (long i = WORKERS / 2; i < WORKERS; i++)
				pthread_create(&t[i], NULL, worker, (void *)i);
		if (r % 20 == 0 && pthread_create(&e, NULL, ephemeral, (void *)r) == 0)
			pthread_join(e, NULL);
	}
	for (int i = 0; i < WORKERS; i++)
		if (r > 100 || i < WORKERS / 2)
			pthread_join(t[i], NULL);
	pthread_join(rd, NULL);
	for (int i = 0; i <= WORKERS; i++)
		printf("%s: %lu wrong results\n", i < WORKERS ? "worker" : "main",
		       atomic_load(&errors[i]));
	return 0;
}
