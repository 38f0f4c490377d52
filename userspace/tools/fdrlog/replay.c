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
 * side table knows them.
 */
#include <stdio.h>
#include "convert.h"
#include "view_filter.h"

struct replay {
	struct out_buffer *o;
	const struct fdr_trace *t;
	const struct call_forest *f;
	const struct symbols *syms;
	const struct view_filter *v;
	uint64_t freq;
	uint32_t tid;
	size_t lines;
};

/* 10 columns: "%3u.%03u us", ms and s from 1000 of the smaller unit. */
static void put_duration(struct replay *r, uint64_t ticks)
{
	uint64_t ns = view_ns(ticks, r->freq);
	const char *unit = "us";
	uint64_t div = 1000;

	if (ns >= 1000000000ull) {
		unit = " s";
		div = 1000000000ull;
	} else if (ns >= 1000000ull) {
		unit = "ms";
		div = 1000000ull;
	}
	out_printf(r->o, "%3llu.%03llu %s", (unsigned long long)(ns / div),
		   (unsigned long long)(ns % div * 1000 / div), unit);
}

static void put_prefix(struct replay *r, const uint64_t *ticks, unsigned depth)
{
	if (ticks)
		put_duration(r, *ticks);
	else
		out_str(r->o, "          ");	/* as wide as a duration */
	out_printf(r->o, " [%6u] | %*s", r->tid, (int)depth * 2, "");
	r->lines++;
}

/* uftrace's habit: small values in decimal, large ones (pointers) in hex. */
static void put_args(struct replay *r, const struct call_node *n)
{
	uint32_t count = 0;
	const uint64_t *args = n->enter ? fdr_event_args(r->t, n->enter, &count) : NULL;

	out_char(r->o, '(');
	for (uint32_t i = 0; i < count; i++)
		out_printf(r->o, args[i] > 100000 ? "%s%#llx" : "%s%llu", i ? ", " : "",
			   (unsigned long long)args[i]);
	out_char(r->o, ')');
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
		out_str(r->o, " /* entry lost */");
	if (flags & CALL_EXIT_LOST)
		out_str(r->o, " /* exit lost */");
	if (flags & CALL_OPEN)
		out_str(r->o, " /* still open at the end */");
}

static bool shown(struct replay *r, const struct call_node *n, unsigned depth)
{
	if (r->v->max_depth && depth >= r->v->max_depth)
		return false;
	return (n->flags & CALL_EVENT) || !view_hidden(r->v, r->syms, n->fid);
}

static bool has_shown_child(struct replay *r, const struct call_node *n, unsigned depth)
{
	for (uint32_t c = n->first_child; c != CALL_NONE; c = r->f->nodes[c].next_sibling)
		if (shown(r, &r->f->nodes[c], depth + 1))
			return true;
	return false;
}

static void put_node(struct replay *r, uint32_t i, unsigned depth);

static void put_call(struct replay *r, const struct call_node *n, unsigned depth)
{
	uint64_t ticks = n->end - n->start;
	const uint64_t *dur = n->flags & CALL_OPEN ? NULL : &ticks;
	char tmp[256];

	if (!has_shown_child(r, n, depth)) {
		put_prefix(r, dur, depth);
		put_name(r, n);
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
	for (uint32_t c = n->first_child; c != CALL_NONE; c = r->f->nodes[c].next_sibling)
		put_node(r, c, depth + 1);
	put_prefix(r, dur, depth);
	out_printf(r->o, "} /* %s */", view_name(r->syms, n->fid, tmp, sizeof(tmp)));
	put_flags(r, n->flags & ~CALL_ENTRY_LOST);
	out_char(r->o, '\n');
}

static void put_node(struct replay *r, uint32_t i, unsigned depth)
{
	const struct call_node *n = &r->f->nodes[i];

	if (!shown(r, n, depth))
		return;
	if (n->flags & CALL_EVENT) {
		put_prefix(r, NULL, depth);
		put_payload(r, n);
	} else {
		put_call(r, n, depth);
	}
}

/* With -F: the subtrees rooted at a named call, each from depth 0. */
static void put_roots(struct replay *r, uint32_t i)
{
	for (; i != CALL_NONE; i = r->f->nodes[i].next_sibling) {
		const struct call_node *n = &r->f->nodes[i];

		if (n->flags & CALL_EVENT || view_hidden(r->v, r->syms, n->fid))
			continue;
		if (view_is_root(r->v, r->syms, n->fid))
			put_node(r, i, 0);
		else
			put_roots(r, n->first_child);
	}
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

int write_replay(struct out_buffer *o, const struct fdr_trace *t, const struct symbols *syms,
		 const struct fdr_thread_table *threads, const struct view_filter *v)
{
	struct call_forest f;
	struct replay r = { o, t, &f, syms, v, fdr_log_get_header(t->log)->cycle_frequency, 0, 0 };

	if (call_forest_build(&f, t))
		return -1;
	out_str(o, "# DURATION     TID     FUNCTION\n");
	for (size_t i = 0; i < f.nthreads; i++) {
		/* a thread in memory first: if nothing of it is shown, not
		 * even its "# thread" line is */
		struct out_buffer m;
		size_t before = r.lines;

		if (out_init(&m, -1)) {
			call_forest_free(&f);
			return -1;
		}
		r.o = &m;
		r.tid = f.threads[i].tid;
		put_thread_line(&r, &f.threads[i], threads);
		put_roots(&r, f.threads[i].first_root);
		if (r.lines > before && !m.error)
			out_bytes(o, m.buf, m.len);
		if (m.error && !o->error)
			o->error = m.error;
		out_release(&m);
	}
	call_forest_free(&f);
	return 0;
}
