// SPDX-License-Identifier: MIT
/*
 * call_walk.c - per-thread call stacks over an expanded trace
 * (call_walk.h).  What a flight recorder keeps is tolerated, not fatal:
 * an exit whose entry was overwritten, a call still open at the end, and
 * frames whose exits were lost are each reported to their callback.
 */
#include <stdlib.h>
#include <string.h>
#include "call_walk.h"

struct thread_stack {
	uint32_t pid, tid;
	struct call_frame *f;
	size_t n, cap;
};

struct walk {
	const struct call_walk_ops *ops;
	void *ctx;
	struct thread_stack *threads;
	size_t nthreads;
};

static struct thread_stack *stack_of(struct walk *w, uint32_t pid, uint32_t tid)
{
	struct thread_stack *t;

	for (size_t i = 0; i < w->nthreads; i++)
		if (w->threads[i].pid == pid && w->threads[i].tid == tid)
			return &w->threads[i];
	t = realloc(w->threads, (w->nthreads + 1) * sizeof(*t));
	if (!t)
		return NULL;
	w->threads = t;
	t = &w->threads[w->nthreads++];
	memset(t, 0, sizeof(*t));
	t->pid = pid;
	t->tid = tid;
	return t;
}

static int push(struct thread_stack *s, int32_t fid, uint64_t tsc)
{
	if (s->n == s->cap) {
		size_t cap = s->cap ? s->cap * 2 : 64;
		struct call_frame *f = realloc(s->f, cap * sizeof(*f));

		if (!f)
			return -1;
		s->f = f;
		s->cap = cap;
	}
	s->f[s->n++] = (struct call_frame){ fid, tsc, 0 };
	return 0;
}

static int on_exit_event(struct walk *w, struct thread_stack *s, const struct fdr_event *ev)
{
	size_t i = s->n;
	struct call_frame *fr;
	struct call_done c;
	int r;

	while (i > 0 && s->f[i - 1].fid != ev->func_id)
		i--;
	if (i == 0)
		return w->ops->orphan_exit ? w->ops->orphan_exit(w->ctx, ev) : 0;
	for (size_t k = i; k < s->n; k++)
		if (w->ops->unwound && (r = w->ops->unwound(w->ctx, s->f[k].fid)))
			return r;
	fr = &s->f[i - 1];
	c = (struct call_done){ s->pid, s->tid, s->f, i - 1,
				ev->tsc > fr->tsc ? ev->tsc - fr->tsc : fr->tsc - ev->tsc };
	s->n = i - 1;
	if (s->n)
		s->f[s->n - 1].child_ticks += c.ticks;
	return w->ops->call ? w->ops->call(w->ctx, &c) : 0;
}

static int walk_event(struct walk *w, const struct fdr_event *ev)
{
	struct thread_stack *s;

	if (ev->kind >= FDR_EVENT_CUSTOM)
		return 0;
	s = stack_of(w, ev->pid, ev->tid);
	if (!s)
		return -1;
	if (ev->kind == FDR_EVENT_ENTER || ev->kind == FDR_EVENT_ENTER_ARG)
		return push(s, ev->func_id, ev->tsc);
	return on_exit_event(w, s, ev);
}

static int report_open_calls(struct walk *w)
{
	int r;

	if (!w->ops->open_call)
		return 0;
	for (size_t i = 0; i < w->nthreads; i++)
		for (size_t k = 0; k < w->threads[i].n; k++)
			if ((r = w->ops->open_call(w->ctx, w->threads[i].pid, w->threads[i].tid,
						   w->threads[i].f[k].fid)))
				return r;
	return 0;
}

int call_walk(const struct fdr_trace *t, const struct call_walk_ops *ops, void *ctx)
{
	struct walk w = { ops, ctx, NULL, 0 };
	int r = 0;

	for (size_t i = 0; i < t->count && !r; i++)
		r = walk_event(&w, fdr_trace_at(t, i));
	if (!r)
		r = report_open_calls(&w);
	for (size_t i = 0; i < w.nthreads; i++)
		free(w.threads[i].f);
	free(w.threads);
	return r;
}
