// SPDX-License-Identifier: MIT
/*
 * trace_expander.c - turn blocks into events, as LLVM 19's TraceExpander.
 *
 * Threads are visited in llvm-xray's map order and each thread's blocks
 * in its wall-time order; one expander state per thread carries BaseTSC,
 * CPU, pid and tid across that thread's blocks.  LLVM reuses a single
 * "current record" per thread, so an event inherits fields a previous
 * record set and nothing reset: custom events keep the last function id,
 * every record after a typed event keeps its event type.  We reproduce
 * that, since it is what llvm-xray prints.
 *
 * Two sinks: fdr_trace_build() fills an array sized by the index;
 * fdr_trace_stream() keeps one event (and its arguments) at a time and
 * hands each to its callback once the next record shows it complete, so
 * memory is the block index whatever the log's size.
 */
#include <stdlib.h>
#include "internal.h"

void expander_reset(struct expander *x)
{
	struct expander keep = *x;

	memset(x, 0, sizeof(*x));
	x->t = keep.t;
	x->stream = keep.stream;
	x->nevents_max = keep.nevents_max;
	x->nargs_max = keep.nargs_max;
	x->version = keep.version;
	x->read_since = keep.read_since;
}

/* Streaming: hand the event held to the callback, and empty the trace. */
void stream_flush(struct expander *x)
{
	struct expand_stream *s = x->stream;

	if (!s || !x->t->count)
		return;
	if (!s->stop)
		s->stop = s->fn(x->t, &x->t->events[0], s->ctx);
	x->t->count = 0;
	x->t->nargs = 0;
}

/* Streaming keeps up to FDR_STREAM_ARGS_MAX arguments of an event (more
 * only a crafted log has); building, what the index counted (the bytes may
 * have changed under the mapping since: never past the array). */
static bool arg_room(struct expander *x)
{
	struct expand_stream *s = x->stream;
	uint64_t *args;
	size_t cap;

	if (!s)
		return x->t->nargs < x->nargs_max;
	if (x->t->nargs < s->args_cap)
		return true;
	if (s->args_cap >= FDR_STREAM_ARGS_MAX)
		return false;
	cap = s->args_cap ? s->args_cap * 2 : 8;
	args = realloc(x->t->args, cap * sizeof(*args));
	if (!args)
		return false;
	x->t->args = args;
	s->args_cap = cap;
	return true;
}

static struct fdr_event *begin_event(struct expander *x, uint8_t kind, uint64_t tsc,
				     uint16_t cpu)
{
	struct fdr_event *ev;

	stream_flush(x);
	ev = &x->t->events[x->t->count++];
	ev->tsc = tsc;
	ev->aux = x->t->nargs;
	ev->count = 0;
	ev->tid = (uint32_t)x->tid;
	ev->pid = (uint32_t)x->pid;
	ev->func_id = x->func_id;
	ev->cpu = cpu;
	ev->record_type = x->record_type;
	ev->kind = kind;
	x->building = true;
	return ev;
}

static void expand_event(struct expander *x, const struct fdr_record *rec)
{
	struct fdr_event *ev;
	uint64_t tsc;
	uint16_t cpu = x->cpu;

	if (rec->kind == FDR_MD_TYPED_EVENT || x->version >= 5) {
		x->base_tsc += (uint64_t)(int64_t)rec->event_delta;
		tsc = x->base_tsc;
	} else {
		tsc = rec->value;	/* absolute; BaseTSC untouched */
		cpu = rec->cpu;		/* bytes 13-14, whatever the version (LLVM 19) */
	}
	if (rec->kind == FDR_MD_TYPED_EVENT)
		x->record_type = rec->event_type;
	ev = begin_event(x, rec->kind == FDR_MD_TYPED_EVENT ? FDR_EVENT_TYPED
							 : FDR_EVENT_CUSTOM, tsc, cpu);
	ev->aux = (uint64_t)(rec->payload - x->t->log->data);
	ev->count = (uint32_t)rec->event_size;
}

static void expand_metadata(struct expander *x, const struct fdr_record *rec)
{
	switch (rec->kind) {
	case FDR_MD_NEW_BUFFER:
		x->ignoring = false;
		x->tid = rec->id;
		if (x->version == 2)
			x->pid = rec->id;	/* LLVM 19's v2 quirk */
		break;
	case FDR_MD_END_OF_BUFFER:
		x->ignoring = true;
		x->building = false;
		break;
	case FDR_MD_NEW_CPU_ID:
		x->cpu = rec->cpu;
		x->base_tsc = rec->value;
		break;
	case FDR_MD_TSC_WRAP:
		x->base_tsc = rec->value;
		break;
	case FDR_MD_PID:
		x->pid = rec->id;
		break;
	case FDR_MD_CALL_ARGUMENT:
		if (x->building && arg_room(x)) {
			struct fdr_event *ev = &x->t->events[x->t->count - 1];

			ev->kind = FDR_EVENT_ENTER_ARG;
			ev->count++;
			x->t->args[x->t->nargs++] = rec->value;
		}
		break;
	case FDR_MD_CUSTOM_EVENT:
	case FDR_MD_TYPED_EVENT:
		x->building = false;
		if (!x->ignoring)
			expand_event(x, rec);
		break;
	default:	/* WalltimeMarker, BufferExtents: no effect */
		break;
	}
}

void expand_record(struct expander *x, const struct fdr_record *rec)
{
	if (rec->is_metadata) {
		expand_metadata(x, rec);
		return;
	}
	x->building = false;
	if (x->ignoring)
		return;
	x->base_tsc += rec->delta;
	x->func_id = (int32_t)rec->func_id;
	begin_event(x, rec->kind, x->base_tsc, x->cpu);
}

static int expand_block(struct expander *x, const struct block *b,
			struct fdr_reader_error *err)
{
	struct producer p = b->start;
	struct fdr_record rec;

	for (uint64_t i = 0; i < b->nrecords && !(x->stream && x->stream->stop); i++) {
		if (producer_next(&p, &rec, err) != 1)
			return -1;	/* only if the file changed since indexing */
		expand_record(x, &rec);
		/* one event a record at most, into the array's spare slot */
		if (!x->stream && x->t->count > x->nevents_max)
			return reader_fail(err, rec.offset, "", "the log changed while it was "
					   "read: more events than the index counted");
	}
	if (x->stream)
		log_pages_read(x->t->log, &x->read_since, p.off - b->start.off);
	return 0;
}

/* Blocks grouped by thread (file order inside a group), groups in map order. */
struct block **blocks_by_group(const struct block_index *ix, size_t *start)
{
	struct block **v = malloc(sizeof(*v) * (ix->nblocks + 1));

	if (!v)
		return NULL;
	memset(start, 0, sizeof(*start) * (ix->ngroups + 1));
	for (size_t i = 0; i < ix->nblocks; i++)
		start[ix->blocks[i].group + 1]++;
	for (size_t g = 0; g < ix->ngroups; g++)
		start[g + 1] += start[g];
	for (size_t i = 0; i < ix->nblocks; i++)
		v[start[ix->blocks[i].group]++] = &ix->blocks[i];
	/* start[g] now holds the end of group g; shift back. */
	memmove(start + 1, start, sizeof(*start) * ix->ngroups);
	start[0] = 0;
	return v;
}

static int expand_all(struct fdr_trace *t, const struct block_index *ix,
		      struct expand_stream *stream, struct fdr_reader_error *err)
{
	size_t *start = malloc(sizeof(*start) * (ix->ngroups + 1));
	struct block **v = start ? blocks_by_group(ix, start) : NULL;
	struct expander x = { .t = t, .stream = stream, .nevents_max = ix->nevents_max,
			      .nargs_max = ix->nargs_max, .version = t->log->header.version };
	int ret = 0;

	if (!v) {
		free(start);
		return reader_fail(err, 0, "", "out of memory");
	}
	for (size_t k = 0; k < ix->ngroups && !ret; k++) {
		uint32_t g = ix->group_order[k];
		struct block **first = v + start[g];
		size_t n = start[g + 1] - start[g];

		block_sort_by_walltime(first, n);
		expander_reset(&x);
		for (size_t i = 0; i < n && !ret; i++)
			ret = expand_block(&x, first[i], err);
		stream_flush(&x);	/* a thread's last event: no argument follows */
		if (stream && stream->stop)
			break;
	}
	free(v);
	free(start);
	return ret;
}

int fdr_trace_build(struct fdr_trace *t, const struct fdr_log *log, unsigned flags,
		    struct fdr_reader_error *err)
{
	struct block_index ix;

	memset(t, 0, sizeof(*t));
	t->log = log;
	if (block_index_build(&ix, log, err))
		return -1;
	if (ix.nevents_max >= UINT32_MAX) {	/* the sort indexes with 32 bits */
		block_index_free(&ix);
		return reader_fail(err, 0, "", "%zu events: more than this reader handles "
				   "(%u)", ix.nevents_max, UINT32_MAX - 1);
	}
	t->events = malloc(sizeof(*t->events) * (ix.nevents_max + 1));
	t->args = malloc(sizeof(*t->args) * (ix.nargs_max + 1));
	if (!t->events || !t->args) {
		reader_fail(err, 0, "", "out of memory for %zu events", ix.nevents_max);
		goto fail;
	}
	if (expand_all(t, &ix, NULL, err))
		goto fail;
	block_index_free(&ix);
	if (flags & FDR_TRACE_SORT_BY_TSC) {
		t->order = malloc(sizeof(*t->order) * (t->count + 1));
		if (!t->order || tsc_sort(t->events, t->count, t->order)) {
			reader_fail(err, 0, "", "out of memory sorting %zu events", t->count);
			fdr_trace_free(t);
			return -1;
		}
	}
	return 0;
fail:
	block_index_free(&ix);
	fdr_trace_free(t);
	return -1;
}

int fdr_trace_stream(const struct fdr_log *log, fdr_event_fn fn, void *ctx,
		     struct fdr_reader_error *err)
{
	struct expand_stream s = { .fn = fn, .ctx = ctx };
	struct fdr_trace t = { .log = log };
	struct block_index ix;
	struct fdr_event ev;
	int r;

	if (block_index_build(&ix, log, err))
		return -1;
	t.events = &ev;
	r = expand_all(&t, &ix, &s, err);
	block_index_free(&ix);
	free(t.args);
	return r ? r : s.stop;
}

void fdr_trace_free(struct fdr_trace *t)
{
	free(t->events);
	free(t->args);
	free(t->order);
	memset(t, 0, sizeof(*t));
}

const uint64_t *fdr_event_args(const struct fdr_trace *t, const struct fdr_event *ev,
			       uint32_t *n)
{
	bool has = ev->kind <= FDR_EVENT_ENTER_ARG && ev->count;

	*n = has ? ev->count : 0;
	return has ? t->args + ev->aux : NULL;
}

const uint8_t *fdr_event_payload(const struct fdr_trace *t, const struct fdr_event *ev,
				 uint32_t *n)
{
	bool has = ev->kind >= FDR_EVENT_CUSTOM;

	*n = has ? ev->count : 0;
	return has ? t->log->data + ev->aux : NULL;
}
