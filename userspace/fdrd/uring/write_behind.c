// SPDX-License-Identifier: MIT
/*
 * write_behind.c - a writer thread behind the caller: see write_behind.h.
 *
 * Slots are used in ring order: the writer takes slot `next`, the caller
 * fills slot (next + queued) mod NR_SLOTS, so a slot is free exactly when
 * fewer than NR_SLOTS are queued.  The writer thread owns its report
 * counts until it is joined; the caller only ever reads `err`, under the
 * lock.  After the first error the writer drops what is queued (the file
 * is discarded by the caller anyway) so that the caller never waits on it.
 */
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "uring_internal.h"
#include "write_behind.h"

/* Enough to keep the writer busy while the caller reads the next slot;
 * few and small enough (with 256 KiB slots) to stay in the CPU caches
 * and to cost few first touches of fresh pages. */
#define NR_SLOTS 4u

struct write_behind {
	pthread_mutex_t lock;
	pthread_cond_t cond;
	pthread_t thread;
	bool threaded;
	bool closing;
	bool started;
	int fd;
	int err;		/* the first write error */
	unsigned int fill;	/* the slot the caller fills */
	unsigned int next;	/* the next slot the writer writes */
	unsigned int queued;	/* handed over, not written yet */
	uint64_t off;		/* file offset of the slot being filled */
	struct uring_write_report rep;	/* the writer's counts */
	uint8_t *mem;
	struct write_behind_slot slot[NR_SLOTS];
};

static int write_slot(struct write_behind *wb, struct write_behind_slot *s)
{
	int ret = uring_pwritev_all(wb->fd, s->call, s->k, s->off, &wb->rep);

	wb->rep.sqes++;
	return ret;
}

static void *writer(void *arg)
{
	struct write_behind *wb = arg;

	pthread_mutex_lock(&wb->lock);
	for (;;) {
		struct write_behind_slot *s;
		int ret = 0;

		while (!wb->queued && !wb->closing)
			pthread_cond_wait(&wb->cond, &wb->lock);
		if (!wb->queued)
			break;
		s = &wb->slot[wb->next];
		if (!wb->err) {
			pthread_mutex_unlock(&wb->lock);
			ret = write_slot(wb, s);
			pthread_mutex_lock(&wb->lock);
		}
		if (ret && !wb->err)
			wb->err = ret;
		wb->next = (wb->next + 1) % NR_SLOTS;
		wb->queued--;
		pthread_cond_broadcast(&wb->cond);
	}
	pthread_mutex_unlock(&wb->lock);
	return NULL;
}

static bool several_cpus(void)
{
	cpu_set_t set;

	return !sched_getaffinity(0, sizeof(set), &set) && CPU_COUNT(&set) > 1;
}

/* The thread takes no signal: the process's handlers stay where they were. */
static void start_writer(struct write_behind *wb)
{
	sigset_t all, old;

	if (!several_cpus())
		return;
	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	wb->threaded = !pthread_create(&wb->thread, NULL, writer, wb);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
}

int write_behind_open(struct write_behind **out, int fd, size_t cap)
{
	struct write_behind *wb = calloc(1, sizeof(*wb));

	*out = NULL;
	if (!wb)
		return -ENOMEM;
	if (cap > SIZE_MAX / NR_SLOTS) {
		free(wb);
		return -ENOMEM;
	}
	wb->mem = malloc(cap * NR_SLOTS);
	if (!wb->mem) {
		free(wb);
		return -ENOMEM;
	}
	for (unsigned int i = 0; i < NR_SLOTS; i++) {
		wb->slot[i].buf = wb->mem + (size_t)i * cap;
		wb->slot[i].cap = cap;
	}
	wb->fd = fd;
	pthread_mutex_init(&wb->lock, NULL);
	pthread_cond_init(&wb->cond, NULL);
	start_writer(wb);
	*out = wb;
	return 0;
}

struct write_behind_slot *write_behind_slot(struct write_behind *wb)
{
	return &wb->slot[wb->fill];
}

bool write_behind_started(const struct write_behind *wb)
{
	return wb->started;
}

static void slot_reset(struct write_behind_slot *s, uint64_t off)
{
	s->k = 0;
	s->used = 0;
	s->bytes = 0;
	s->off = off;
}

int write_behind_next(struct write_behind *wb)
{
	struct write_behind_slot *s = &wb->slot[wb->fill];
	int ret;

	if (!s->k)
		return 0;
	wb->started = true;
	wb->off = s->off + s->bytes;
	if (!wb->threaded) {
		ret = write_slot(wb, s);
		slot_reset(s, wb->off);
		return ret;
	}
	pthread_mutex_lock(&wb->lock);
	wb->queued++;
	wb->fill = (wb->fill + 1) % NR_SLOTS;
	pthread_cond_broadcast(&wb->cond);
	while (wb->queued == NR_SLOTS)
		pthread_cond_wait(&wb->cond, &wb->lock);
	ret = wb->err;
	pthread_mutex_unlock(&wb->lock);
	slot_reset(&wb->slot[wb->fill], wb->off);
	return ret;
}

int write_behind_close(struct write_behind *wb, bool commit,
		       struct uring_write_report *rep)
{
	int ret = 0;

	if (commit)
		ret = write_behind_next(wb);

	if (wb->threaded) {
		pthread_mutex_lock(&wb->lock);
		wb->closing = true;
		pthread_cond_broadcast(&wb->cond);
		pthread_mutex_unlock(&wb->lock);
		pthread_join(wb->thread, NULL);
		ret = wb->err;
	}
	rep->sqes += wb->rep.sqes;
	rep->short_writes += wb->rep.short_writes;
	rep->bytes += wb->rep.bytes;
	pthread_cond_destroy(&wb->cond);
	pthread_mutex_destroy(&wb->lock);
	free(wb->mem);
	free(wb);
	return ret;
}
