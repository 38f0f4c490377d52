// SPDX-License-Identifier: MIT
/*
 * tsc_stream.c - fdr_trace_stream_sorted(): the events of a log in the
 * order fdr_trace_build(..., FDR_TRACE_SORT_BY_TSC) gives them, without
 * holding them.
 *
 * Why: on a hypervisor with shadow page tables the first touch of each
 * fresh page costs microseconds, and the expanded array of a 33 MB log is
 * ~150 MB of them (Documentation/reader.md, "Performance").  Here memory
 * is the block index and a few events a run.
 *
 * How: the expansion order (thread by thread, each thread's blocks by
 * wall time) is a few ascending runs of TSCs, and a stable sort of it is
 * a merge of those runs with ties going to the earlier run (tsc_sort.c
 * does the same on the array).  A first walk expands the log without
 * keeping events and notes where each run starts: the expander's state
 * and position before the record that begins its first event.  Then one
 * walker per run restarts from there and the heap merges them, each
 * walker expanding its run one event at a time.  A log with more runs
 * than MAX_RUNS, or an event with FDR_STREAM_ARGS_MAX arguments or more
 * (streaming keeps only that many), is expanded whole and sorted instead.
 */
#include <stdlib.h>
#include "internal.h"

#define MAX_RUNS 1024

/* Where a walk is: block seq[j], records left in it, the expander. */
struct walk_pos {
	size_t j;
	struct producer p;
	uint64_t left;
	struct expander x;
};

struct run {
	struct walk_pos start;	/* before the record that begins its first event */
	uint64_t nevents;
};

/* The blocks in expansion order, and which begin a thread. */
struct sequence {
	const struct fdr_log *log;
	struct block **seq;
	bool *first;
	size_t n;
};

struct walker {
	const struct sequence *sq;
	struct walk_pos pos;
	struct expand_stream s;
	struct fdr_trace t;	/* the event held, still taking arguments */
	struct fdr_event held;
	bool done;
	/* the last event completed (merging) */
	bool ready;
	struct fdr_event ev;
	uint64_t *args;
	size_t args_cap;
	uint64_t left_events;	/* of its run, not yet completed */
	uint32_t run;
	/* finding runs */
	struct run *runs;
	size_t nruns;
	bool too_many;		/* runs, or arguments of one event */
	uint64_t last_tsc;
};

static int sequence_build(struct sequence *sq, const struct block_index *ix)
{
	size_t *start = malloc(sizeof(*start) * (ix->ngroups + 1));
	struct block **v = start ? blocks_by_group(ix, start) : NULL;
	size_t n = 0;

	sq->seq = malloc(sizeof(*sq->seq) * (ix->nblocks + 1));
	sq->first = malloc(sizeof(*sq->first) * (ix->nblocks + 1));
	if (!v || !sq->seq || !sq->first) {
		free(v);
		free(start);
		return -1;
	}
	for (size_t k = 0; k < ix->ngroups; k++) {
		uint32_t g = ix->group_order[k];

		block_sort_by_walltime(v + start[g], start[g + 1] - start[g]);
		for (size_t i = start[g]; i < start[g + 1]; i++) {
			sq->first[n] = i == start[g];
			sq->seq[n++] = v[i];
		}
	}
	sq->n = n;
	free(v);
	free(start);
	return 0;
}

static void sequence_free(struct sequence *sq)
{
	free(sq->seq);
	free(sq->first);
}

/* Point the walker's expander at its own trace and stream. */
static void walker_attach(struct walker *w)
{
	w->t.events = &w->held;
	w->t.log = w->sq->log;
	w->t.count = 0;
	w->t.nargs = 0;
	w->pos.x.t = &w->t;
	w->pos.x.stream = &w->s;
}

/* Does this record begin an event (expand_record's rule)? */
static bool begins_event(const struct expander *x, const struct fdr_record *rec)
{
	if (x->ignoring)
		return false;
	return !rec->is_metadata || rec->kind == FDR_MD_CUSTOM_EVENT ||
	       rec->kind == FDR_MD_TYPED_EVENT;
}

/*
 * One record, or the step to the next block: 1, 0 at the end of the
 * sequence (the last event flushed), -1 with *err if the log changed
 * since it was indexed.  Finding runs, notes each run's start.
 */
static int walk_step(struct walker *w, struct fdr_reader_error *err)
{
	struct walk_pos *c = &w->pos, before;
	struct fdr_record rec;
	bool begins;

	while (c->left == 0) {
		if (c->j + 1 >= w->sq->n) {
			if (!w->done)
				stream_flush(&c->x);
			w->done = true;
			return 0;
		}
		c->j++;
		if (w->sq->first[c->j]) {
			stream_flush(&c->x);
			expander_reset(&c->x);
		}
		c->p = w->sq->seq[c->j]->start;
		c->left = w->sq->seq[c->j]->nrecords;
	}
	if (w->runs)
		before = *c;
	if (producer_next(&c->p, &rec, err) != 1)
		return -1;	/* only if the file changed since indexing */
	c->left--;
	begins = begins_event(&c->x, &rec);
	expand_record(&c->x, &rec);
	if (w->runs && begins && !w->too_many) {
		uint64_t tsc = w->held.tsc;

		if (w->nruns == 0 || tsc < w->last_tsc) {
			if (w->nruns == MAX_RUNS) {
				w->too_many = true;
			} else {
				before.x.t = NULL;
				before.x.stream = NULL;
				w->runs[w->nruns++] = (struct run){ before, 0 };
			}
		}
		if (!w->too_many)
			w->runs[w->nruns - 1].nevents++;
		w->last_tsc = tsc;
	}
	return 1;
}

/* Finding runs: an event completed; is it one streaming may cut short? */
static int note_event(const struct fdr_trace *t, const struct fdr_event *ev, void *ctx)
{
	struct walker *w = ctx;

	(void)t;
	if (ev->kind == FDR_EVENT_ENTER_ARG && ev->count >= FDR_STREAM_ARGS_MAX)
		w->too_many = true;
	return 0;
}

/* Merging: keep the completed event and its arguments. */
static int take_event(const struct fdr_trace *t, const struct fdr_event *ev, void *ctx)
{
	struct walker *w = ctx;
	uint32_t n;
	const uint64_t *args = fdr_event_args(t, ev, &n);

	if (n > w->args_cap) {
		uint64_t *a = realloc(w->args, sizeof(*a) * n);

		if (!a)
			return -1;
		w->args = a;
		w->args_cap = n;
	}
	if (n)
		memcpy(w->args, args, sizeof(*args) * n);
	w->ev = *ev;
	if (ev->kind <= FDR_EVENT_ENTER_ARG)
		w->ev.aux = 0;
	w->ready = true;
	w->left_events--;
	return 0;
}

/* Merging: expand the walker's run up to its next completed event. */
static int walker_advance(struct walker *w, struct fdr_reader_error *err)
{
	w->ready = false;
	while (!w->ready && w->left_events && !w->done) {
		int r = walk_step(w, err);

		if (r < 0)
			return -1;
		if (w->s.stop)
			return reader_fail(err, 0, "", "out of memory");
	}
	return 0;
}

static int find_runs(struct walker *w, const struct sequence *sq,
		     struct fdr_reader_error *err)
{
	int r = 1;

	w->sq = sq;
	w->s = (struct expand_stream){ .fn = note_event, .ctx = w };
	w->runs = malloc(sizeof(*w->runs) * MAX_RUNS);
	if (!w->runs)
		return reader_fail(err, 0, "", "out of memory");
	if (sq->n == 0)
		return 0;
	w->pos.p = sq->seq[0]->start;
	w->pos.left = sq->seq[0]->nrecords;
	walker_attach(w);
	while (r == 1 && !w->too_many)
		r = walk_step(w, err);
	free(w->t.args);
	return r < 0 ? -1 : 0;
}

static bool walker_before(const struct walker *a, const struct walker *b)
{
	return a->ev.tsc < b->ev.tsc || (a->ev.tsc == b->ev.tsc && a->run < b->run);
}

static void sift_down(struct walker **h, size_t n, size_t i)
{
	for (;;) {
		size_t l = 2 * i + 1, m = i;
		struct walker *t;

		if (l < n && walker_before(h[l], h[m]))
			m = l;
		if (l + 1 < n && walker_before(h[l + 1], h[m]))
			m = l + 1;
		if (m == i)
			return;
		t = h[i];
		h[i] = h[m];
		h[m] = t;
		i = m;
	}
}

/* Hand the walker's event to fn; 0, or fn's non-zero return. */
static int emit(struct walker *w, const struct fdr_log *log, fdr_event_fn fn, void *ctx)
{
	struct fdr_trace t = { .events = &w->ev, .count = 1, .args = w->args,
			       .nargs = w->ev.kind <= FDR_EVENT_ENTER_ARG ? w->ev.count : 0,
			       .log = log };

	return fn(&t, &w->ev, ctx);
}

static int merge_runs(const struct sequence *sq, const struct run *runs, size_t nruns,
		      const struct fdr_log *log, fdr_event_fn fn, void *ctx,
		      struct fdr_reader_error *err)
{
	struct walker *w = calloc(nruns + 1, sizeof(*w));
	struct walker **heap = malloc(sizeof(*heap) * (nruns + 1));
	size_t n = 0;
	int r = 0;

	if (!w || !heap) {
		free(w);
		free(heap);
		return reader_fail(err, 0, "", "out of memory");
	}
	for (size_t i = 0; i < nruns && !r; i++) {
		w[i] = (struct walker){ .sq = sq, .pos = runs[i].start, .run = (uint32_t)i,
					.left_events = runs[i].nevents };
		w[i].s = (struct expand_stream){ .fn = take_event, .ctx = &w[i] };
		walker_attach(&w[i]);
		r = walker_advance(&w[i], err);
		if (w[i].ready)
			heap[n++] = &w[i];
	}
	for (size_t i = n / 2; i-- > 0 && !r;)
		sift_down(heap, n, i);
	while (n && !r) {
		r = emit(heap[0], log, fn, ctx);
		if (!r)
			r = walker_advance(heap[0], err);
		if (!heap[0]->ready)
			heap[0] = heap[--n];
		sift_down(heap, n, 0);
	}
	for (size_t i = 0; i < nruns; i++) {
		free(w[i].t.args);
		free(w[i].args);
	}
	free(w);
	free(heap);
	return r;
}

/* Too many runs: expand the whole log, sort it, hand each event to fn. */
static int sorted_whole(const struct fdr_log *log, fdr_event_fn fn, void *ctx,
			struct fdr_reader_error *err)
{
	struct fdr_trace t;
	int r = 0;

	if (fdr_trace_build(&t, log, FDR_TRACE_SORT_BY_TSC, err))
		return -1;
	for (size_t i = 0; i < t.count && !r; i++)
		r = fn(&t, fdr_trace_at(&t, i), ctx);
	fdr_trace_free(&t);
	return r;
}

int fdr_trace_stream_sorted(const struct fdr_log *log, fdr_event_fn fn, void *ctx,
			    struct fdr_reader_error *err)
{
	struct block_index ix;
	struct sequence sq = { .log = log };
	struct walker finder = { 0 };
	int r;

	if (block_index_build(&ix, log, err))
		return -1;
	finder.pos.x.version = log->header.version;
	if (sequence_build(&sq, &ix)) {
		r = reader_fail(err, 0, "", "out of memory");
	} else {
		r = find_runs(&finder, &sq, err);
		if (r == 0 && !finder.too_many)
			r = merge_runs(&sq, finder.runs, finder.nruns, log, fn, ctx, err);
	}
	free(finder.runs);
	sequence_free(&sq);
	block_index_free(&ix);
	if (r == 0 && finder.too_many)
		return sorted_whole(log, fn, ctx, err);
	return r;
}
