// SPDX-License-Identifier: MIT
/*
 * yaml_stream.c - write_yaml of a whole log without holding its trace:
 * the events come in TSC order from fdr_trace_stream_sorted() and are
 * gathered, with their arguments, into one batch that is formatted on
 * every CPU (yaml_records) when full and then reused.  Reusing it is the
 * point: a fresh page costs microseconds on its first touch under some
 * hypervisors, and the whole trace of a 33 MB log is ~150 MB of them
 * (Documentation/reader.md, "Performance").
 */
#include <errno.h>
#include <stdlib.h>
#include "convert.h"
#include "parallel_format.h"

#define BATCH 65536	/* events: 4 of parallel_format.c's chunks */

struct batch {
	struct out_buffer *o;
	const struct symbols *syms;
	const struct fdr_log *log;
	struct format_buffers fb;	/* kept from batch to batch */
	struct fdr_event *events;	/* BATCH of them */
	uint64_t *args;
	size_t n, nargs, args_cap;
	bool any;
};

static void batch_write(struct batch *b)
{
	struct fdr_trace t = { .events = b->events, .count = b->n, .args = b->args,
			       .nargs = b->nargs, .log = b->log };

	if (!b->n)
		return;
	if (!b->any)
		out_str(b->o, "records:\n");
	b->any = true;
	yaml_records(b->o, &t, b->syms, &b->fb);
	b->n = 0;
	b->nargs = 0;
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
	struct batch *b = ctx;
	uint32_t n;
	const uint64_t *args = fdr_event_args(t, ev, &n);
	struct fdr_event *e;

	if (b->n == BATCH)
		batch_write(b);
	if (b->o->error)
		return 1;
	if (n && !args_room(b, n)) {
		b->o->error = ENOMEM;
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
	struct batch b = { .o = o, .syms = syms, .log = log };
	int r;

	b.events = malloc(sizeof(*b.events) * BATCH);
	if (!b.events) {
		o->error = ENOMEM;
		return 0;
	}
	yaml_header(o, fdr_log_get_header(log));
	r = fdr_trace_stream_sorted(log, add_event, &b, err);
	if (r == 0) {
		batch_write(&b);
		out_str(o, b.any ? "...\n" : "records:         []\n...\n");
	}
	format_buffers_release(&b.fb);
	free(b.events);
	free(b.args);
	return r < 0;
}
