// SPDX-License-Identifier: MIT
/*
 * call_tree.c - build one call tree per thread (call_tree.h says how the
 * gaps a wrapped ring leaves are kept).
 */
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include "arg_spec.h"
#include "array_grow.h"
#include "call_tree.h"
#include "thread_index.h"

static uint32_t new_node(struct call_forest *f, int32_t fid, uint32_t flags,
			 uint64_t start)
{
	struct call_node *n;

	if (array_grow((void **)&f->nodes, &f->cap, f->count + 1, sizeof(*n)))
		return CALL_NONE;
	n = &f->nodes[f->count];
	memset(n, 0, sizeof(*n));
	n->fid = fid;
	n->flags = flags;
	n->start = n->end = start;
	n->first_child = n->next_sibling = n->last_child = CALL_NONE;
	return (uint32_t)f->count++;
}

/* Append node i under the thread's top frame, or at its top level. */
static void attach(struct call_forest *f, struct call_thread *th, uint32_t i)
{
	uint32_t *first, *last;

	if (th->depth) {
		struct call_node *p = &f->nodes[th->stack[th->depth - 1]];

		first = &p->first_child;
		last = &p->last_child;
	} else {
		first = &th->first_root;
		last = &th->last_root;
	}
	if (*last == CALL_NONE)
		*first = i;
	else
		f->nodes[*last].next_sibling = i;
	*last = i;
}

static int push(struct call_forest *f, struct call_thread *th, const struct fdr_event *ev)
{
	uint32_t i = new_node(f, ev->func_id, 0, ev->tsc);

	if (i == CALL_NONE || array_grow((void **)&th->stack, &th->cap, th->depth + 1, sizeof(uint32_t)))
		return -1;
	f->nodes[i].enter = ev;
	attach(f, th, i);
	th->stack[th->depth++] = i;
	if (th->depth > f->max_depth)
		f->max_depth = th->depth;
	return 0;
}

/* An Exit with an empty stack: the call began before the thread's first
 * record still in the log, and holds everything the thread did so far. */
static int wrap_lost_entry(struct call_forest *f, struct call_thread *th,
			   const struct fdr_event *ev)
{
	uint32_t i = new_node(f, ev->func_id, CALL_ENTRY_LOST | CALL_WRAPS, th->first_tsc);
	struct call_node *n;

	if (i == CALL_NONE)
		return -1;
	n = &f->nodes[i];
	n->end = ev->tsc;
	n->exit = ev;
	n->first_child = th->first_root;
	n->last_child = th->last_root;
	th->first_root = th->last_root = i;
	return 0;
}

static int pop_to(struct call_forest *f, struct call_thread *th, const struct fdr_event *ev)
{
	size_t d = th->depth;
	uint32_t i;

	while (d > 0 && f->nodes[th->stack[d - 1]].fid != ev->func_id)
		d--;
	if (d == 0 && th->depth == 0)
		return wrap_lost_entry(f, th, ev);
	if (d == 0) {		/* not on the stack: a zero-length lost call */
		i = new_node(f, ev->func_id, CALL_ENTRY_LOST, ev->tsc);
		if (i == CALL_NONE)
			return -1;
		f->nodes[i].exit = ev;
		attach(f, th, i);
		return 0;
	}
	while (th->depth >= d) {
		struct call_node *n = &f->nodes[th->stack[--th->depth]];

		n->end = ev->tsc;
		if (th->depth >= d)
			n->flags |= CALL_EXIT_LOST;
		else
			n->exit = ev;
		if (th->depth < d && ev->kind == FDR_EVENT_TAIL_EXIT)
			n->flags |= CALL_TAIL_EXIT;
	}
	return 0;
}

/* An -A/-R record of the innermost open call (call_tree.h): 1 if ev was
 * one (kept there, or dropped with no call open), else 0. */
static int args_event(struct call_forest *f, struct call_thread *th,
		      const struct fdr_trace *t, const struct fdr_event *ev)
{
	uint32_t size = 0;
	const uint8_t *p = ev->kind == FDR_EVENT_CUSTOM ? fdr_event_payload(t, ev, &size) : NULL;
	enum arg_record kind = arg_record_kind(p, size);
	bool str = kind == ARG_RECORD_STR, ret = kind == ARG_RECORD_RET;
	struct call_node *n;

	if (!str && !ret)
		return 0;
	if (th->depth) {
		n = &f->nodes[th->stack[th->depth - 1]];
		if (str)
			n->args = ev;
		else
			n->ret = ev;
	}
	return 1;
}

static int add_event(struct call_forest *f, struct call_thread *th, const struct fdr_trace *t,
		     const struct fdr_event *ev)
{
	uint32_t i;

	if (args_event(f, th, t, ev))
		return 0;
	i = new_node(f, ev->func_id, CALL_EVENT, ev->tsc);

	if (i == CALL_NONE)
		return -1;
	f->nodes[i].event = ev;
	attach(f, th, i);
	return 0;
}

static int add(struct call_forest *f, struct call_thread *th, const struct fdr_trace *t,
	       const struct fdr_event *ev)
{
	if (th->first_tsc == UINT64_MAX)
		th->first_tsc = ev->tsc;
	th->last_tsc = ev->tsc;
	switch (ev->kind) {
	case FDR_EVENT_ENTER:
	case FDR_EVENT_ENTER_ARG:
		return push(f, th, ev);
	case FDR_EVENT_EXIT:
	case FDR_EVENT_TAIL_EXIT:
		return pop_to(f, th, ev);
	default:
		return add_event(f, th, t, ev);
	}
}

/* The threads, in order of first record. */
static int make_threads(struct call_forest *f, struct thread_index *ti)
{
	f->threads = calloc(ti->count + 1, sizeof(*f->threads));
	if (!f->threads)
		return -1;
	for (size_t i = 0; i < ti->count; i++)
		f->threads[i] = (struct call_thread){
			.pid = ti->pid[i], .tid = ti->tid[i], .first_tsc = UINT64_MAX,
			.first_root = CALL_NONE, .last_root = CALL_NONE,
		};
	f->nthreads = ti->count;
	return 0;
}

/* Calls still open at the end close at the thread's last record. */
static void close_open(struct call_forest *f, struct call_thread *th)
{
	while (th->depth) {
		struct call_node *n = &f->nodes[th->stack[--th->depth]];

		n->end = th->last_tsc;
		n->flags |= CALL_OPEN;
	}
	free(th->stack);
	th->stack = NULL;
	th->cap = 0;
}

int call_forest_build(struct call_forest *f, const struct fdr_trace *t)
{
	struct thread_index ti;
	int r = 0;

	memset(f, 0, sizeof(*f));
	if (thread_index_build(&ti, t))
		return -1;
	if (make_threads(f, &ti)) {
		thread_index_free(&ti);
		return -1;
	}
	for (size_t i = 0; i < t->count && r == 0; i++) {
		const struct fdr_event *ev = fdr_trace_at(t, i);

		r = add(f, &f->threads[thread_index_find(&ti, ev)], t, ev);
	}
	for (size_t i = 0; i < f->nthreads; i++)
		close_open(f, &f->threads[i]);
	thread_index_free(&ti);
	if (r)
		call_forest_free(f);
	return r;
}

void call_forest_free(struct call_forest *f)
{
	for (size_t i = 0; i < f->nthreads; i++)
		free(f->threads[i].stack);
	free(f->nodes);
	free(f->threads);
	memset(f, 0, sizeof(*f));
}
