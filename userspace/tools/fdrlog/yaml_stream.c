// SPDX-License-Identifier: MIT
/*
 * yaml_stream.c - write_yaml of a whole log without holding its trace:
 * the events come in TSC order from fdr_trace_stream_sorted() and are
 * gathered, with their arguments, into a batch of BATCH; a full batch is
 * formatted on every CPU (yaml_records) by a thread of its own while the
 * other batch fills, then reused.  Reusing is the point: a fresh page
 * costs microseconds on its first touch under some hypervisors, and the
 * whole trace of a 33 MB log is ~150 MB of them (Documentation/reader.md,
 * "Performance").
 */
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include "convert.h"
#include "parallel_format.h"

#define BATCH 65536	/* events: 4 of parallel_format.c's chunks */

/* Events with their arguments, ready to format. */
struct batch {
	struct fdr_event *events;	/* BATCH of them */
	uint64_t *args;
	size_t n, nargs, args_cap;
};

/* While one batch fills, the other is formatted by a thread of its own. */
struct yaml_stream {
	struct out_buffer *o;
	const struct symbols *syms;
	const struct fdr_log *log;
	struct format_buffers fb;	/* kept from batch to batch */
	struct batch b[2];
	unsigned filling;		/* b[filling] takes the events */
	pthread_t formatter;
	bool formatting;		/* formatter runs on b[!filling] */
	bool any;			/* "records:" written */
};

/* Format b[!filling] (on the formatter thread, or the caller's). */
static void *format_batch(void *arg)
{
	struct yaml_stream *ys = arg;
	struct batch *b = &ys->b[!ys->filling];
	struct fdr_trace t = { .events = b->events, .count = b->n, .args = b->args,
			       .nargs = b->nargs, .log = ys->log };

	if (b->n) {
		if (!ys->any)
			out_str(ys->o, "records:\n");
		ys->any = true;
		yaml_records(ys->o, &t, ys->syms, &ys->fb);
	}
	b->n = 0;
	b->nargs = 0;
	return NULL;
}

static void wait_formatter(struct yaml_stream *ys)
{
	if (ys->formatting)
		pthread_join(ys->formatter, NULL);
	ys->formatting = false;
}

/* The filling batch is full (or the last): format it, fill the other.
 * False, nothing started, once writing has failed. */
static bool hand_off(struct yaml_stream *ys, bool last)
{
	wait_formatter(ys);
	if (ys->o->error)
		return false;
	ys->filling = !ys->filling;
	if (last || pthread_create(&ys->formatter, NULL, format_batch, ys))
		format_batch(ys);
	else
		ys->formatting = true;
	return true;
}

static bool args_room(struct batch *b, size_t n)
{
	size_t cap = b->args_cap ? b->args_cap : 1024;
	uint64_t *a;

	if (b->nargs + n <= b->args_cap)
		return true;
	while (cap < b->nargs + n)
		cap *= 2;
	a = realloc(b->args, sizeof(*a) * cap);
	if (!a)
		return false;
	b->args = a;
	b->args_cap = cap;
	return true;
}

/* One event (valid during the call only): copied into the batch. */
static int add_event(const struct fdr_trace *t, const struct fdr_event *ev, void *ctx)
{
	struct yaml_stream *ys = ctx;
	struct batch *b = &ys->b[ys->filling];
	uint32_t n;
	const uint64_t *args = fdr_event_args(t, ev, &n);
	struct fdr_event *e;

	if (b->n == BATCH) {
		if (!hand_off(ys, false))
			return 1;
		b = &ys->b[ys->filling];
	}
	if (n && !args_room(b, n)) {
		wait_formatter(ys);
		ys->o->error = ENOMEM;
		return 1;
	}
	e = &b->events[b->n++];
	*e = *ev;
	if (ev->kind <= FDR_EVENT_ENTER_ARG) {
		/* fdr_event_args reads [aux, aux + count) of the batch's args */
		e->aux = b->nargs;
		if (n)
			memcpy(b->args + b->nargs, args, sizeof(*args) * n);
		b->nargs += n;
	}
	return 0;
}

int write_yaml_stream(struct out_buffer *o, const struct fdr_log *log,
		      const struct symbols *syms, struct fdr_reader_error *err)
{
	struct yaml_stream ys = { .o = o, .syms = syms, .log = log };
	int r = 0;

	ys.b[0].events = malloc(sizeof(struct fdr_event) * BATCH);
	ys.b[1].events = malloc(sizeof(struct fdr_event) * BATCH);
	if (!ys.b[0].events || !ys.b[1].events)
		o->error = ENOMEM;
	else
		yaml_header(o, fdr_log_get_header(log));
	if (!o->error)
		r = fdr_trace_stream_sorted(log, add_event, &ys, err);
	if (r == 0)
		hand_off(&ys, true);
	wait_formatter(&ys);
	if (r == 0 && !o->error)
		out_str(o, ys.any ? "...\n" : "records:         []\n...\n");
	format_buffers_release(&ys.fb);
	for (int i = 0; i < 2; i++) {
		free(ys.b[i].events);
		free(ys.b[i].args);
	}
	return r < 0;
}
