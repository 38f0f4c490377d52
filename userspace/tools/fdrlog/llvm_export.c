// SPDX-License-Identifier: MIT
/*
 * llvm_export.c - `fdrlog convert --for-llvm-xray`: a YAML trace that
 * llvm-xray-19's tools accept for any log a flight recorder leaves.
 *
 * llvm-xray account (LLVM 19, xray-account.cpp) takes the records in the
 * order it loaded them, never sorted (it calls loadTraceFile without
 * Sort), and fails on
 *   - any record whose TSC is below the first record's (CurrentMaxTSC is
 *     set from the first record and never raised): every multi-threaded
 *     log whose first thread in LLVM's map order did not record first,
 *     compiler-rt's as much as ours;
 *   - an Exit with an empty stack (-d or not): a wrapped ring overwrote
 *     its Enter;
 *   - an Exit that does not match the top of the stack, without -d.
 * Its YAML reader keeps the file's order, and takes only "version: 1" in
 * the header (so it cannot read back what `llvm-xray convert -f yaml`
 * prints for a version 2-5 log).  So the export says version 1, and it is
 * sorted by
 * TSC (the order `convert --format yaml` prints), and where the trace
 * lacks an Enter, one is added, with data "fdr-entry-lost": for the
 * calls a thread leaves before its first Enter, at the TSC of the
 * thread's first record, outermost first (so their latency is a lower
 * bound); for an Exit of a function not on a non-empty stack, just
 * before it.  An Exit that matches a deeper frame first gets an Exit,
 * with data "fdr-exit-lost", for each frame above it.  Nothing is
 * dropped; a log that needs none of this exports the bytes of
 * `convert --format yaml` but for the version line.
 */
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include "convert.h"
#include "thread_index.h"

#define ENTRY_LOST "fdr-entry-lost"
#define EXIT_LOST "fdr-exit-lost"

struct xthread {
	int32_t *stack;
	size_t depth, cap;
	int32_t *orphans;	/* pass 1: Exits met with an empty stack */
	size_t norphans, ocap;
	int started;
};

struct xport {
	struct out_buffer *o;
	const struct fdr_trace *t;
	const struct symbols *syms;
	struct yaml_cache cache;
	size_t enters, exits;
};

static int append(int32_t **v, size_t *n, size_t *cap, int32_t x)
{
	if (*n == *cap) {
		size_t c = *cap ? *cap * 2 : 16;
		int32_t *p = realloc(*v, c * sizeof(*p));

		if (!p)
			return -1;
		*v = p;
		*cap = c;
	}
	(*v)[(*n)++] = x;
	return 0;
}

/* Where fid is on the stack, from the top: depth index + 1, 0 if not. */
static size_t find(const struct xthread *th, int32_t fid)
{
	for (size_t d = th->depth; d > 0; d--)
		if (th->stack[d - 1] == fid)
			return d;
	return 0;
}

static bool is_exit(const struct fdr_event *ev)
{
	return ev->kind == FDR_EVENT_EXIT || ev->kind == FDR_EVENT_TAIL_EXIT;
}

static bool is_enter(const struct fdr_event *ev)
{
	return ev->kind == FDR_EVENT_ENTER || ev->kind == FDR_EVENT_ENTER_ARG;
}

/* Pass 1: each thread's Exits that find its stack empty. */
static int find_orphans(struct xthread *th, const struct fdr_event *ev)
{
	size_t d;

	if (is_enter(ev))
		return append(&th->stack, &th->depth, &th->cap, ev->func_id);
	if (!is_exit(ev))
		return 0;
	if (th->depth == 0)
		return append(&th->orphans, &th->norphans, &th->ocap, ev->func_id);
	d = find(th, ev->func_id);
	if (d)
		th->depth = d - 1;
	return 0;
}

/* A record of our own, like ev but of another kind and function. */
static void put_added(struct xport *x, const struct fdr_event *ev, uint8_t kind,
		      int32_t fid, const char *mark)
{
	struct fdr_event e = *ev;

	e.kind = kind;
	e.func_id = fid;
	e.count = 0;
	e.aux = 0;
	yaml_record(x->o, x->t, &e, x->syms, &x->cache, mark);
	if (kind == FDR_EVENT_ENTER)
		x->enters++;
	else
		x->exits++;
}

/* Before a thread's first record: the Enters the ring lost, outermost first. */
static int seed(struct xport *x, struct xthread *th, const struct fdr_event *ev)
{
	th->started = 1;
	th->depth = 0;
	for (size_t k = th->norphans; k-- > 0;) {
		put_added(x, ev, FDR_EVENT_ENTER, th->orphans[k], ENTRY_LOST);
		if (append(&th->stack, &th->depth, &th->cap, th->orphans[k]))
			return -1;
	}
	return 0;
}

static int put_exit(struct xport *x, struct xthread *th, const struct fdr_event *ev)
{
	size_t d = find(th, ev->func_id);

	if (d == 0) {
		put_added(x, ev, FDR_EVENT_ENTER, ev->func_id, ENTRY_LOST);
	} else {
		while (th->depth > d)
			put_added(x, ev, FDR_EVENT_EXIT, th->stack[--th->depth], EXIT_LOST);
		th->depth = d - 1;
	}
	yaml_record(x->o, x->t, ev, x->syms, &x->cache, NULL);
	return 0;
}

static int put_event(struct xport *x, struct xthread *th, const struct fdr_event *ev)
{
	if (!th->started && seed(x, th, ev))
		return -1;
	if (is_exit(ev))
		return put_exit(x, th, ev);
	yaml_record(x->o, x->t, ev, x->syms, &x->cache, NULL);
	return is_enter(ev) ? append(&th->stack, &th->depth, &th->cap, ev->func_id) : 0;
}

static int export(struct xport *x, struct xthread *th, const struct thread_index *ti)
{
	const struct fdr_trace *t = x->t;
	struct fdr_log_header h = *fdr_log_get_header(t->log);

	for (size_t i = 0; i < t->count; i++) {
		const struct fdr_event *ev = fdr_trace_at(t, i);

		if (find_orphans(&th[thread_index_find(ti, ev)], ev))
			return -1;
	}

	h.version = 1;	/* the only version LLVM 19's YAML reader takes */
	yaml_header(x->o, &h);
	out_str(x->o, t->count ? "records:\n" : "records:         []\n");
	for (size_t i = 0; i < t->count; i++) {
		const struct fdr_event *ev = fdr_trace_at(t, i);

		if (put_event(x, &th[thread_index_find(ti, ev)], ev))
			return -1;
	}
	out_str(x->o, "...\n");
	return 0;
}

int write_llvm_export(struct out_buffer *o, const struct fdr_trace *t, const struct symbols *syms,
		      size_t *added_enters, size_t *added_exits)
{
	struct xport *x = calloc(1, sizeof(*x));
	struct thread_index ti;
	struct xthread *th = NULL;
	int r = -1;

	if (x && thread_index_build(&ti, t) == 0) {
		th = calloc(ti.count + 1, sizeof(*th));
		*x = (struct xport){ .o = o, .t = t, .syms = syms };
		if (th)
			r = export(x, th, &ti);
		for (size_t i = 0; th && i < ti.count; i++) {
			free(th[i].stack);
			free(th[i].orphans);
		}
		thread_index_free(&ti);
	}
	if (x) {
		*added_enters = x->enters;
		*added_exits = x->exits;
	}
	free(th);
	free(x);
	return r;
}
