// SPDX-License-Identifier: MIT
/*
 * parallel_format.c - see parallel_format.h.
 *
 * Workers take chunks in order from a shared counter and format each into
 * one of 2 x workers memory buffers (slot = chunk % nslots); the calling
 * thread writes the slots in chunk order and hands each back.  A worker
 * waits only when its slot still holds an unwritten chunk.  With one CPU,
 * little input, or no threads, everything runs on the caller.
 */
#include <errno.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdlib.h>
#include <unistd.h>
#include "parallel_format.h"

#define CHUNK 16384	/* items per chunk: ~2 MB of YAML */
#define MAX_WORKERS FORMAT_MAX_WORKERS

struct slot {
	struct out_buffer *ob;	/* one of struct format_buffers' */
	size_t chunk;		/* the chunk this slot may hold next */
	bool ready;		/* formatted, not yet written */
};

struct pool {
	pthread_mutex_t mu;
	pthread_cond_t cv;
	struct slot slots[2 * MAX_WORKERS];
	size_t nslots, nchunks, next_chunk, n;
	format_range_fn fn;
	void *ctx;
};

static void *worker(void *arg)
{
	struct pool *p = arg;

	for (;;) {
		struct slot *s;
		size_t c, lo;

		pthread_mutex_lock(&p->mu);
		c = p->next_chunk++;
		s = &p->slots[c % p->nslots];
		while (c < p->nchunks && (s->ready || s->chunk != c))
			pthread_cond_wait(&p->cv, &p->mu);
		pthread_mutex_unlock(&p->mu);
		if (c >= p->nchunks)
			return NULL;
		s->ob->len = 0;
		lo = c * CHUNK;
		p->fn(s->ob, lo, lo + CHUNK < p->n ? lo + CHUNK : p->n, p->ctx);
		pthread_mutex_lock(&p->mu);
		s->ready = true;
		pthread_cond_broadcast(&p->cv);
		pthread_mutex_unlock(&p->mu);
	}
}

/* Flush out, then write the slot's bytes straight from its buffer. */
static void write_slot(struct out_buffer *out, struct out_buffer *ob)
{
	if (ob->error && !out->error)
		out->error = ob->error;
	out_flush(out);
	if (out->fd < 0) {
		out_bytes_slow(out, ob->buf, ob->len);
		return;
	}
	for (size_t done = 0; done < ob->len && !out->error;) {
		ssize_t w = write(out->fd, ob->buf + done, ob->len - done);

		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			out->error = w < 0 ? errno : EIO;
		else
			done += (size_t)w;
	}
}

static void write_in_order(struct out_buffer *out, struct pool *p)
{
	for (size_t c = 0; c < p->nchunks; c++) {
		struct slot *s = &p->slots[c % p->nslots];

		pthread_mutex_lock(&p->mu);
		while (!s->ready || s->chunk != c)
			pthread_cond_wait(&p->cv, &p->mu);
		pthread_mutex_unlock(&p->mu);
		write_slot(out, s->ob);
		pthread_mutex_lock(&p->mu);
		s->ready = false;
		s->chunk = c + p->nslots;
		pthread_cond_broadcast(&p->cv);
		pthread_mutex_unlock(&p->mu);
	}
}

static size_t worker_count(size_t n)
{
	const char *env = getenv("FDRLOG_THREADS");	/* for benchmarks and tests */
	long cpus = env ? atol(env) : sysconf(_SC_NPROCESSORS_ONLN);
	size_t chunks = (n + CHUNK - 1) / CHUNK;

	if (cpus < 2 || chunks < 2)
		return 0;
	return (size_t)cpus < MAX_WORKERS ? (size_t)cpus : MAX_WORKERS;
}

/* Slot i's buffer, made the first time it is needed; NULL if out of memory. */
static struct out_buffer *slot_buffer(struct format_buffers *fb, size_t i)
{
	while (fb->n <= i) {
		if (out_init(&fb->ob[fb->n], -1))
			return NULL;
		fb->n++;
	}
	return &fb->ob[i];
}

void format_in_parallel_with(struct format_buffers *fb, struct out_buffer *out, size_t n,
			     format_range_fn fn, void *ctx)
{
	struct pool p;
	pthread_t tids[MAX_WORKERS];
	size_t nworkers = worker_count(n), started = 0;

	p = (struct pool){ .n = n, .fn = fn, .ctx = ctx, .nchunks = (n + CHUNK - 1) / CHUNK,
			   .nslots = 2 * nworkers };
	for (size_t i = 0; i < p.nslots; i++) {
		p.slots[i].chunk = i;
		p.slots[i].ob = slot_buffer(fb, i);
		if (!p.slots[i].ob)
			nworkers = 0;
	}
	pthread_mutex_init(&p.mu, NULL);
	pthread_cond_init(&p.cv, NULL);
	while (started < nworkers && pthread_create(&tids[started], NULL, worker, &p) == 0)
		started++;
	if (started)
		write_in_order(out, &p);
	else
		fn(out, 0, n, ctx);
	for (size_t i = 0; i < started; i++)
		pthread_join(tids[i], NULL);
	pthread_cond_destroy(&p.cv);
	pthread_mutex_destroy(&p.mu);
}

void format_buffers_release(struct format_buffers *fb)
{
	for (size_t i = 0; i < fb->n; i++)
		out_release(&fb->ob[i]);
	fb->n = 0;
}

void format_in_parallel(struct out_buffer *out, size_t n, format_range_fn fn, void *ctx)
{
	struct format_buffers fb = { .n = 0 };

	format_in_parallel_with(&fb, out, n, fn, ctx);
	format_buffers_release(&fb);
}
