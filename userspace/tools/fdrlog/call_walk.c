// SPDX-License-Identifier: MIT
/*
 * call_walk.c - per-thread call stacks over an expanded trace
 * (call_walk.h).  What a flight recorder keeps is tolerated, not fatal:
 * an exit whose entry was overwritten, a call still open at the end, and
 * frames whose exits were lost are each reported to their callback.
 *
 * Linear in records and threads whatever the log holds (a crafted log is
 * as welcome as a real one): threads are found through key_index, and an
 * exit learns where its function's topmost frame is on its thread's stack
 * (if anywhere) from an index per (thread, function), so an exit without
 * entry costs O(1) instead of a walk down the whole stack.  A matched exit
 * walks down only over frames it then pops, each frame once.  Each frame
 * links to the frame of its function below it, which keeps that index
 * right across pops and tells a recursive call from an outermost one.
 */
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include "array_grow.h"
#include "call_walk.h"
#include "key_index.h"

struct thread_stack {
	uint32_t pid, tid;
	struct call_frame *f;
	size_t n, cap;
};

struct walk {
	const struct call_walk_ops *ops;
	void *ctx;
	struct thread_stack *threads;	/* by thread_ix index */
	size_t capthreads;
	struct key_index thread_ix;	/* pid << 32 | tid */
	size_t *top;			/* 1 + index of a function's topmost frame
					 * on a thread's stack, 0: none */
	size_t captop;
	struct key_index top_ix;	/* thread index << 32 | fid */
};

static struct thread_stack *stack_of(struct walk *w, uint32_t pid, uint32_t tid)
{
	bool added;
	int64_t i = key_index_get(&w->thread_ix, (uint64_t)pid << 32 | tid, &added);

	if (i < 0)
		return NULL;
	if (added) {
		if (array_grow((void **)&w->threads, &w->capthreads, (size_t)i + 1,
			 sizeof(*w->threads)))
			return NULL;
		memset(&w->threads[i], 0, sizeof(*w->threads));
		w->threads[i].pid = pid;
		w->threads[i].tid = tid;
	}
	return &w->threads[i];
}

/* Where fid's topmost frame is on thread s's stack (a slot to change). */
static size_t *top_of(struct walk *w, const struct thread_stack *s, int32_t fid)
{
	uint64_t thread = (uint64_t)(s - w->threads);
	bool added;
	int64_t i = key_index_get(&w->top_ix, thread << 32 | (uint32_t)fid, &added);

	if (i < 0)
		return NULL;
	if (added) {
		if (array_grow((void **)&w->top, &w->captop, (size_t)i + 1, sizeof(*w->top)))
			return NULL;
		w->top[i] = 0;
	}
	return &w->top[i];
}

static int push(struct walk *w, struct thread_stack *s, int32_t fid, uint64_t tsc)
{
	size_t *top;

	if (array_grow((void **)&s->f, &s->cap, s->n + 1, sizeof(*s->f)))
		return -1;
	top = top_of(w, s, fid);
	if (!top)
		return -1;
	s->f[s->n] = (struct call_frame){ fid, tsc, 0, *top };
	*top = ++s->n;
	return 0;
}

/* Pop the frames above frame i (unwound: their exits were lost), then i. */
static int pop_to(struct walk *w, struct thread_stack *s, size_t i)
{
	int r;

	for (size_t k = s->n; k-- > i;) {
		size_t *top = top_of(w, s, s->f[k].fid);

		if (!top)
			return -1;
		*top = s->f[k].outer;
		if (k != i && w->ops->unwound && (r = w->ops->unwound(w->ctx, s->f[k].fid)))
			return r;
	}
	s->n = i;
	return 0;
}

static int on_exit_event(struct walk *w, struct thread_stack *s, const struct fdr_event *ev)
{
	size_t *top = top_of(w, s, ev->func_id);
	size_t i;
	struct call_frame *fr;
	struct call_done c;
	int r;

	if (!top)
		return -1;
	if (*top == 0)
		return w->ops->orphan_exit ? w->ops->orphan_exit(w->ctx, ev) : 0;
	/* the exit closes the function's topmost frame and every frame above it */
	i = *top - 1;
	fr = &s->f[i];
	c = (struct call_done){ s->pid, s->tid, s->f, i,
				ev->tsc > fr->tsc ? ev->tsc - fr->tsc : fr->tsc - ev->tsc };
	if ((r = pop_to(w, s, i)))
		return r;
	if (s->n)
		s->f[s->n - 1].child_ticks += c.ticks;
	/* c.frames[0..depth] are still in place: pop_to only moved s->n */
	return w->ops->call ? w->ops->call(w->ctx, &c) : 0;
}

int call_walk_step(struct walk *w, const struct fdr_event *ev)
{
	struct thread_stack *s;
	int r;

	if (w->ops->event && (r = w->ops->event(w->ctx, ev)))
		return r;
	if (ev->kind >= FDR_EVENT_CUSTOM)
		return 0;
	s = stack_of(w, ev->pid, ev->tid);
	if (!s)
		return -1;
	if (ev->kind == FDR_EVENT_ENTER || ev->kind == FDR_EVENT_ENTER_ARG)
		return push(w, s, ev->func_id, ev->tsc);
	return on_exit_event(w, s, ev);
}

static int report_open_calls(struct walk *w)
{
	int r;

	if (!w->ops->open_call)
		return 0;
	for (size_t i = 0; i < w->thread_ix.n; i++)
		for (size_t k = 0; k < w->threads[i].n; k++)
			if ((r = w->ops->open_call(w->ctx, w->threads[i].pid, w->threads[i].tid,
						   w->threads[i].f[k].fid)))
				return r;
	return 0;
}

struct walk *call_walk_start(const struct call_walk_ops *ops, void *ctx)
{
	struct walk *w = calloc(1, sizeof(*w));

	if (!w)
		return NULL;
	w->ops = ops;
	w->ctx = ctx;
	key_index_init(&w->thread_ix);
	key_index_init(&w->top_ix);
	return w;
}

int call_walk_finish(struct walk *w, int r)
{
	if (!r)
		r = report_open_calls(w);
	for (size_t i = 0; i < w->thread_ix.n; i++)
		free(w->threads[i].f);
	free(w->threads);
	free(w->top);
	key_index_free(&w->thread_ix);
	key_index_free(&w->top_ix);
	free(w);
	return r;
}

int call_walk(const struct fdr_trace *t, const struct call_walk_ops *ops, void *ctx)
{
	struct walk *w = call_walk_start(ops, ctx);
	int r = 0;

	if (!w)
		return -1;
	for (size_t i = 0; i < t->count && !r; i++)
		r = call_walk_step(w, fdr_trace_at(t, i));
	return call_walk_finish(w, r);
}

bool call_is_nested(const struct call_done *c, size_t from)
{
	size_t outer = c->frames[c->depth].outer;

	return outer && outer - 1 >= from;
}
