// SPDX-License-Identifier: MIT
/*
 * replay.c - the call tree of each thread, as `uftrace replay` prints it:
 *
 *   # DURATION     TID     FUNCTION
 *               [   101] | main() {
 *      0.300 us [   101] |   parse(7);
 *               [   101] |   /+ custom-event: "hello" +/
 *      4.000 us [   101] | } /+ main +/
 *
 * (with real comment markers).  A leaf is one line with its duration; a
 * call with shown children opens with "{" and closes with its duration.
 * What the ring lost is said where it happened: "entry lost" on a call
 * that began before the log (its duration is a lower bound), "exit lost"
 * on a frame an exit further down closed, "still open at the end" (no
 * duration).  Threads come one after the other, in order of first record,
 * each under a "# thread" line with its process and command when the
 * side table knows them.  With the scheduling file, each time the thread
 * was off its CPU is a line where it happened, inside the call it
 * interrupted ("-- off CPU 2.001 ms (sleeping, woken by tid 102)"); a
 * call that had one is drawn with braces even when it has no children.
 */
#include <stdio.h>
#include <stdlib.h>
#include "arg_spec.h"
#include "deep_stack.h"
#include "convert.h"
#include "off_cpu.h"
#include "view_filter.h"

struct replay {
	struct out_buffer *o;
	const struct fdr_trace *t;
	const struct call_forest *f;
	const struct symbols *syms;
	const struct arg_specs *args;		/* fdr record -A/-R's types */
	const uint8_t *shown;			/* per node: the filters show it */
	uint8_t *below;				/* per node: shows a callee (or deeper) */
	bool narrowed;				/* -F or -C: nothing between shown calls */
	uint64_t freq;
	uint32_t tid;
	size_t lines;
	const struct fdr_sched *sched;
	const struct fdr_sched_thread *sth;	/* this thread's records, or NULL */
	size_t next_rec;			/* where the next time off CPU is looked for */
	struct off_cpu off;			/* the next one, when have_off */
	bool have_off;
	bool attached;				/* --attached: a missing entry was
						 * before an fdr record -p attach */
};

static void put_time(struct replay *r, uint64_t ticks, int width)
{
	view_put_time(r->o, view_ns(ticks, r->freq), width);
}

/* 10 columns. */
static void put_duration(struct replay *r, uint64_t ticks)
{
	put_time(r, ticks, 3);
}

/* Levels of indentation at most (Documentation/man/fdr.1, replay). */
#define REPLAY_INDENT_MAX 256

static void put_prefix(struct replay *r, const uint64_t *ticks, unsigned depth)
{
	if (ticks)
		put_duration(r, *ticks);
	else
		out_str(r->o, "          ");	/* as wide as a duration */
	out_printf(r->o, " [%6u] | ", r->tid);
	/* Deeper calls line up at the last column: a 100,000-deep
	 * recursion would otherwise print 10 GB of spaces. */
	out_fill(r->o, ' ', 2 * (size_t)(depth < REPLAY_INDENT_MAX ? depth : REPLAY_INDENT_MAX));
	r->lines++;
}

/* The thread's next time off CPU, when it starts before tsc. */
static const struct off_cpu *off_cpu_before(struct replay *r, uint64_t tsc)
{
	if (!r->have_off && r->sth)
		r->have_off = off_cpu_next(r->sth, &r->next_rec, &r->off);
	return r->have_off && r->off.start < tsc ? &r->off : NULL;
}

static void put_waker(struct replay *r, const struct fdr_sched_record *w)
{
	if (w->state == FDR_SCHED_BY_HARDIRQ)
		out_str(r->o, ", woken by a hard interrupt");
	else if (w->state == FDR_SCHED_BY_SOFTIRQ)
		out_str(r->o, ", woken by a softirq");
	else if (w->flags & FDR_SCHED_OTHER_HIDDEN)
		/* a task the session's owner may not see (fdr_sched.h) */
		out_str(r->o, ", woken by another process");
	else if (w->other_pid != w->pid)
		out_printf(r->o, ", woken by tid %d of process %d", w->other_tid, w->other_pid);
	else
		out_printf(r->o, ", woken by tid %d", w->other_tid);
}

/* Every time off CPU that starts before tsc: a line at depth, or dropped
 * (inside calls a filter does not show). */
static void put_off_cpus(struct replay *r, uint64_t tsc, unsigned depth, bool print)
{
	const struct off_cpu *off;

	while ((off = off_cpu_before(r, tsc))) {
		r->have_off = false;
		if (!print)
			continue;
		put_prefix(r, NULL, depth);
		out_str(r->o, "-- off CPU ");
		if (!off->open) {
			put_time(r, off->end - off->start, 0);
			out_char(r->o, ' ');
		}
		out_printf(r->o, "(%s", off_cpu_reason(off->state));
		if (off->wakeup)
			put_waker(r, off->wakeup);
		out_str(r->o, off->open ? ", not back on a CPU in the records)\n" : ")\n");
	}
}

/* "(a, b)" as the spec of the call's function types them. */
static void put_args(struct replay *r, const struct call_node *n)
{
	uint32_t count = 0, size = 0;
	const uint64_t *args = n->enter ? fdr_event_args(r->t, n->enter, &count) : NULL;
	const uint8_t *strs = n->args ? fdr_event_payload(r->t, n->args, &size) : NULL;

	arg_put_args(r->o, arg_specs_find(r->args, n->fid), args, count, strs, size);
}

/* " = value" when the call's return value was recorded. */
static void put_ret(struct replay *r, const struct call_node *n)
{
	uint32_t size = 0;
	const uint8_t *p = n->ret ? fdr_event_payload(r->t, n->ret, &size) : NULL;

	arg_put_ret(r->o, arg_specs_find(r->args, n->fid), p, size);
}

static void put_name(struct replay *r, const struct call_node *n)
{
	char tmp[256];

	out_str(r->o, view_name(r->syms, n->fid, tmp, sizeof(tmp)));
	put_args(r, n);
}

/* Bytes as in a C string: printable ASCII as is, the rest \xHH (a log
 * and its side table may hold anything). */
static void put_c_string(struct replay *r, const uint8_t *p, size_t size)
{
	for (size_t i = 0; i < size; i++) {
		if (p[i] >= 0x20 && p[i] < 0x7f && p[i] != '"' && p[i] != '\\')
			out_char(r->o, (char)p[i]);
		else
			out_printf(r->o, "\\x%02x", p[i]);
	}
}

static void put_payload(struct replay *r, const struct call_node *n)
{
	uint32_t size = 0;
	const uint8_t *p = fdr_event_payload(r->t, n->event, &size);

	if (n->event->kind == FDR_EVENT_TYPED)
		out_printf(r->o, "/* typed-event %u: \"", n->event->record_type);
	else
		out_str(r->o, "/* custom-event: \"");
	put_c_string(r, p, size);
	out_str(r->o, "\" */\n");
}

/* Notes on a call's first line: what the ring lost there. */
static void put_flags(struct replay *r, uint32_t flags)
{
	if (flags & CALL_ENTRY_LOST)
		out_str(r->o, r->attached ? " /* entered before the attach */"
					     : " /* entry lost */");
	if (flags & CALL_EXIT_LOST)
		out_str(r->o, " /* exit lost */");
	if (flags & CALL_OPEN)
		out_str(r->o, " /* still open at the end */");
	if (flags & CALL_TAIL_EXIT)
		out_str(r->o, " /* tail call: the next call runs in its place */");
}

/* below[i]: does i hold a shown call or event, at any depth? */
static bool mark_below(struct replay *r, uint32_t i)
{
	bool any = false;

	for (uint32_t c = r->f->nodes[i].first_child; c != CALL_NONE; c = r->f->nodes[c].next_sibling)
		any |= mark_below(r, c) || r->shown[c];
	r->below[i] = any;
	return any;
}

static void put_node(struct replay *r, uint32_t i, unsigned depth);

/*
 * The shown calls under n, at depth: a child the filters hide (-N,
 * --depth, ...) shows the calls it holds that they show, as uftrace
 * does; the time off CPU inside what is hidden is left out.
 */
static void put_children(struct replay *r, const struct call_node *n, unsigned depth)
{
	for (uint32_t c = n->first_child; c != CALL_NONE; c = r->f->nodes[c].next_sibling) {
		const struct call_node *child = &r->f->nodes[c];

		if (r->shown[c]) {
			put_off_cpus(r, child->start, depth, true);
			put_node(r, c, depth);
		} else if (r->below[c]) {
			put_children(r, child, depth);
		}
		if (!r->shown[c])
			put_off_cpus(r, child->end, depth, false);
	}
}

static void put_call(struct replay *r, const struct call_node *n, unsigned depth)
{
	uint64_t ticks = n->end - n->start;
	const uint64_t *dur = n->flags & CALL_OPEN ? NULL : &ticks;
	char tmp[256];

	if (!r->below[n - r->f->nodes] && !off_cpu_before(r, n->end)) {
		put_prefix(r, dur, depth);
		put_name(r, n);
		put_ret(r, n);
		out_char(r->o, ';');
		put_flags(r, n->flags);
		out_char(r->o, '\n');
		return;
	}
	put_prefix(r, NULL, depth);
	put_name(r, n);
	out_str(r->o, " {");
	put_flags(r, n->flags & CALL_ENTRY_LOST);
	out_char(r->o, '\n');
	put_children(r, n, depth + 1);
	put_off_cpus(r, n->end, depth + 1, true);
	put_prefix(r, dur, depth);
	out_char(r->o, '}');
	if (n->ret) {	/* uftrace: "} = 1; /+ f +/" */
		put_ret(r, n);
		out_char(r->o, ';');
	}
	out_printf(r->o, " /* %s */", view_name(r->syms, n->fid, tmp, sizeof(tmp)));
	put_flags(r, n->flags & ~CALL_ENTRY_LOST);
	out_char(r->o, '\n');
}

static void put_node(struct replay *r, uint32_t i, unsigned depth)
{
	const struct call_node *n = &r->f->nodes[i];

	if (n->flags & CALL_EVENT) {
		put_prefix(r, NULL, depth);
		put_payload(r, n);
	} else {
		put_call(r, n, depth);
	}
}

/* The shown calls at the top level, and those inside hidden ones. */
static void put_roots(struct replay *r, uint32_t i)
{
	for (; i != CALL_NONE; i = r->f->nodes[i].next_sibling) {
		const struct call_node *n = &r->f->nodes[i];

		if (r->shown[i]) {
			/* between shown calls only without -F/-C: else not inside one */
			put_off_cpus(r, n->start, 0, !r->narrowed);
			put_node(r, i, 0);
		} else if (r->below[i]) {
			put_roots(r, n->first_child);
		}
	}
}

static bool narrows(const struct filter_opts *v)
{
	for (size_t i = 0; i < v->nrules; i++)
		if (v->rules[i].kind == 'F' || v->rules[i].kind == 'C')
			return true;
	return false;
}

/* The filters' marks, and below[] of every top-level call. */
static int mark(struct replay *r, const struct filter_opts *v)
{
	uint8_t *shown;

	if (view_filter_marks(v, r->t, r->f, r->syms, &shown))
		return -1;
	r->shown = shown;
	r->below = calloc(r->f->count + 1, 1);
	if (!r->below)
		return -1;
	for (size_t k = 0; k < r->f->nthreads; k++)
		for (uint32_t i = r->f->threads[k].first_root; i != CALL_NONE;
		     i = r->f->nodes[i].next_sibling)
			mark_below(r, i);
	return 0;
}

static void put_thread_line(struct replay *r, const struct call_thread *th,
			    const struct fdr_thread_table *tt)
{
	const struct fdr_thread_info *ti = fdr_thread_table_find(tt, (int32_t)th->tid);

	out_printf(r->o, "# thread %u", th->tid);
	if (ti) {
		out_printf(r->o, " (process %d, ", ti->pid);
		put_c_string(r, (const uint8_t *)ti->comm, strlen(ti->comm));
		out_char(r->o, ')');
	}
	else if (th->pid && th->pid != th->tid)
		out_printf(r->o, " (process %u)", th->pid);
	out_char(r->o, '\n');
}

/* What write_replay hands to the walk (deep_stack_run). */
struct replay_job {
	struct replay *r;
	const struct filter_opts *v;
	const struct fdr_thread_table *threads;
};

static int replay_threads(void *ctx)
{
	struct replay_job *job = ctx;
	struct replay *r = job->r;
	const struct call_forest *f = r->f;
	struct out_buffer *o = r->o;
	int err = mark(r, job->v);

	if (!err)
		out_str(o, "# DURATION     TID     FUNCTION\n");
	for (size_t i = 0; i < f->nthreads && !err; i++) {
		/* a thread in memory first: if nothing of it is shown, not
		 * even its "# thread" line is */
		struct out_buffer m;
		size_t before = r->lines;

		if (!filter_opts_wants_tid(job->v, f->threads[i].tid))
			continue;	/* not even its time off CPU */
		if (out_init(&m, -1)) {
			err = -1;
			break;
		}
		r->o = &m;
		r->tid = f->threads[i].tid;
		r->sth = fdr_sched_thread_find(r->sched, (int32_t)r->tid);
		r->next_rec = 0;
		r->have_off = false;
		put_thread_line(r, &f->threads[i], job->threads);
		put_roots(r, f->threads[i].first_root);
		put_off_cpus(r, UINT64_MAX, 0, !r->narrowed);
		if (r->lines > before && !m.error)
			out_bytes(o, m.buf, m.len);
		if (m.error && !o->error)
			o->error = m.error;
		out_release(&m);
		r->o = o;
	}
	return err;
}

int write_replay(struct out_buffer *o, const struct fdr_trace *t, const struct symbols *syms,
		 const struct arg_specs *args, const struct fdr_thread_table *threads, const struct fdr_sched *sched,
		 const struct filter_opts *v, bool attached)
{
	struct call_forest f;
	struct replay r = { o, t, &f, syms, args, NULL, NULL, narrows(v),
			    fdr_log_get_header(t->log)->cycle_frequency, 0, 0, sched, NULL, 0, { 0 },
			    false, attached };
	struct replay_job job = { &r, v, threads };
	int err;

	if (call_forest_build(&f, t))
		return -1;
	err = deep_stack_run(f.max_depth, replay_threads, &job);
	free((void *)r.shown);
	free(r.below);
	call_forest_free(&f);
	return err;
}
