// SPDX-License-Identifier: MIT
/*
 * view_narrow.c - what the filters show (view_filter.h): walk each
 * thread's call tree once, in entry order, deciding per call from its
 * caller's state.  Replay and flame draw the marks on the tree; report and
 * convert read a trace narrowed to the records of the calls shown.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "deep_stack.h"
#include "filter_match.h"
#include "view_filter.h"

struct walk {
	const struct filter_opts *f;
	const struct filter_match *m;
	const struct call_forest *cf;
	const struct fdr_trace *t;
	uint64_t freq, first_tsc, finish_tsc;
	uint8_t *shown;		/* per node of cf */
	uint8_t *reach;		/* -C: per node, it or a callee is named by -C */
	bool has_only, has_caller, tracing;
};

/* What a call hands its callees. */
struct state {
	bool in;		/* inside a -F call (always, without -F) */
	bool shown;		/* itself shown (the top: without -F and -C) */
	bool anchor;		/* shown, or the top: a lost call under it stays put */
	unsigned depth;		/* its callees' level, from the -F call or the top */
	unsigned max_depth;	/* 0: no limit */
	uint64_t min_ns;
};

static bool named_caller(const struct walk *w, int32_t fid)
{
	const struct fid_rules *fr = filter_match_find(w->m, fid);

	return fr && fr->caller;
}

/* -C: mark the calls that are, or lead to, a call of a -C function. */
static bool mark_reach(struct walk *w, uint32_t i)
{
	const struct call_node *n = &w->cf->nodes[i];
	bool r = !(n->flags & CALL_EVENT) && named_caller(w, n->fid);

	for (uint32_t c = n->first_child; c != CALL_NONE; c = w->cf->nodes[c].next_sibling)
		r |= mark_reach(w, c);
	w->reach[i] = r;
	return r;
}

/* finish: the earliest return of a function with that trigger. */
static void find_finish(struct walk *w)
{
	w->finish_tsc = UINT64_MAX;
	for (size_t i = 0; i < w->cf->count; i++) {
		const struct call_node *n = &w->cf->nodes[i];
		const struct fid_rules *fr;

		if (n->flags & CALL_EVENT)
			continue;
		fr = filter_match_find(w->m, n->fid);
		if (fr && (fr->actions & TRIG_FINISH) && n->end < w->finish_tsc)
			w->finish_tsc = n->end;
	}
}

/* -r: does [start, end] lie within the range? */
static bool in_range(const struct walk *w, uint64_t start, uint64_t end)
{
	const struct filter_opts *f = w->f;
	uint64_t s, e;

	if (!f->range)
		return true;
	s = view_ns(start - (f->range_elapsed[0] ? w->first_tsc : 0), w->freq);
	e = view_ns(end - (f->range_elapsed[1] ? w->first_tsc : 0), w->freq);
	return s >= f->range_ns[0] && e <= f->range_ns[1];
}

static void walk_node(struct walk *w, uint32_t i, const struct state *up);

static void walk_children(struct walk *w, const struct call_node *n, const struct state *st)
{
	for (uint32_t c = n->first_child; c != CALL_NONE; c = w->cf->nodes[c].next_sibling)
		walk_node(w, c, st);
}

/* A custom or typed event: shown inside a shown call (or at the top
 * when nothing narrows to calls), within the depth. */
static void walk_event(struct walk *w, const struct call_node *n, const struct state *up)
{
	if (up->shown && w->tracing && (!up->max_depth || up->depth < up->max_depth) &&
	    n->start <= w->finish_tsc && in_range(w, n->start, n->start))
		w->shown[n - w->cf->nodes] = 1;
}

/* Its own state from its caller's and the rules naming it. */
static void enter_state(struct walk *w, const struct fid_rules *fr, const struct state *up,
			struct state *st)
{
	*st = *up;
	if (fr && fr->fn == 'F') {
		st->in = true;
		st->depth = 0;		/* a nested -F restarts the count */
	}
	if (fr && (fr->actions & TRIG_DEPTH)) {
		st->depth = 0;
		st->max_depth = fr->depth;
	}
	if (fr && (fr->actions & TRIG_TIME))
		st->min_ns = fr->time_ns;
	if (fr && (fr->actions & TRIG_TRACE_ON))
		w->tracing = true;
	if (fr && (fr->actions & TRIG_TRACE_OFF))
		w->tracing = false;
}

static void walk_node(struct walk *w, uint32_t i, const struct state *up)
{
	const struct call_node *n = &w->cf->nodes[i];
	const struct fid_rules *fr;
	struct state st;
	bool time_ok;

	if (n->flags & CALL_EVENT) {
		walk_event(w, n, up);
		return;
	}
	fr = filter_match_find(w->m, n->fid);
	if ((fr && fr->fn == 'N') || (w->has_caller && !w->reach[i]))
		return;		/* neither it nor its callees */
	enter_state(w, fr, up, &st);
	time_ok = (n->flags & CALL_OPEN) || view_ns(n->end - n->start, w->freq) >= st.min_ns;
	if (!time_ok)
		return;		/* its callees are shorter still */
	st.shown = st.in && w->tracing && (!st.max_depth || st.depth < st.max_depth) &&
		   n->start <= w->finish_tsc && in_range(w, n->start, n->end) &&
		   /* a lost call's Exit alone, away from its caller, would
		    * swallow what came before it (call_tree.h) */
		   (n->enter || (n->flags & CALL_WRAPS) || up->anchor);
	w->shown[i] = st.shown;
	st.anchor = st.shown;
	st.depth++;
	if (w->has_caller && fr && fr->caller)
		return;		/* -C: the function is a leaf */
	walk_children(w, n, &st);
}

static int walk_forest(struct walk *w)
{
	struct state top = { .in = !w->has_only, .shown = !w->has_only && !w->has_caller,
			     .anchor = true, .max_depth = w->f->max_depth, .min_ns = w->f->min_ns };

	if (w->has_caller) {
		w->reach = calloc(w->cf->count + 1, 1);
		if (!w->reach)
			return -1;
		for (size_t k = 0; k < w->cf->nthreads; k++)
			for (uint32_t i = w->cf->threads[k].first_root; i != CALL_NONE;
			     i = w->cf->nodes[i].next_sibling)
				mark_reach(w, i);
	}
	find_finish(w);
	for (size_t k = 0; k < w->cf->nthreads; k++) {
		if (!filter_opts_wants_tid(w->f, w->cf->threads[k].tid))
			continue;
		w->tracing = true;	/* trace_on/trace_off act per thread */
		for (uint32_t i = w->cf->threads[k].first_root; i != CALL_NONE;
		     i = w->cf->nodes[i].next_sibling)
			walk_node(w, i, &top);
	}
	return 0;
}

/* Replace t by the records of the calls shown, in t's order (so sorted). */
static int rebuild(struct fdr_trace *t, const struct call_forest *cf, const uint8_t *shown)
{
	struct fdr_trace n = { .log = t->log, .nargs = t->nargs };
	uint8_t *kept = calloc(t->count + 1, 1);
	size_t count = 0;

	n.events = malloc((t->count + 1) * sizeof(*n.events));
	n.args = malloc((t->nargs + 1) * sizeof(*n.args));
	if (!kept || !n.events || !n.args) {
		free(kept);
		fdr_trace_free(&n);
		return -1;
	}
	for (size_t i = 0; i < cf->count; i++) {
		const struct call_node *c = &cf->nodes[i];

		if (!shown[i])
			continue;
		if (c->enter)
			kept[c->enter - t->events] = 1;
		if (c->exit)
			kept[c->exit - t->events] = 1;
		if (c->event)
			kept[c->event - t->events] = 1;
	}
	memcpy(n.args, t->args, t->nargs * sizeof(*n.args));
	for (size_t i = 0; i < t->count; i++) {
		const struct fdr_event *ev = fdr_trace_at(t, i);

		if (kept[ev - t->events])
			n.events[count++] = *ev;
	}
	n.count = count;
	free(kept);
	fdr_trace_free(t);
	*t = n;
	return 0;
}

static bool has_rule(const struct filter_opts *f, char kind)
{
	for (size_t i = 0; i < f->nrules; i++)
		if (f->rules[i].kind == kind)
			return true;
	return false;
}

/* A --tid of no thread of the log would show nothing, silently. */
static int check_tids(const struct filter_opts *f, const struct fdr_trace *t, const char *who)
{
	for (size_t k = 0; k < f->ntids; k++) {
		size_t i = 0;

		while (i < t->count && t->events[i].tid != f->tids[k])
			i++;
		if (i == t->count) {
			fprintf(stderr, "%s: --tid %u: no thread of the log has that id "
				"(the \"# thread\" lines of replay name them)\n", who, f->tids[k]);
			return 2;
		}
	}
	return 0;
}

int view_filter_check(const struct filter_opts *f, const struct fdr_trace *t,
		      const struct symbols *syms, const char *who)
{
	struct filter_match m;
	int r = check_tids(f, t, who);

	if (r)
		return r;
	r = filter_match_build(&m, f, t, syms, who);
	filter_match_free(&m);
	return r;
}

int view_filter_marks(const struct filter_opts *f, const struct fdr_trace *t,
		      const struct call_forest *cf, const struct symbols *syms, uint8_t **shown)
{
	struct filter_match m;
	struct walk w = { .f = f, .m = &m, .cf = cf, .t = t,
			  .freq = fdr_log_get_header(t->log)->cycle_frequency,
			  .has_only = has_rule(f, 'F'), .has_caller = has_rule(f, 'C') };
	int r;

	*shown = calloc(cf->count + 1, 1);
	if (!*shown)
		return -1;
	if (!filter_opts_active(f)) {
		memset(*shown, 1, cf->count);
		return 0;
	}
	/* quiet: the names were checked before anything was written */
	if (filter_match_build(&m, f, t, syms, NULL)) {
		free(*shown);
		*shown = NULL;
		return -1;
	}
	w.first_tsc = t->count ? fdr_trace_at(t, 0)->tsc : 0;
	w.shown = *shown;
	r = walk_forest(&w);
	free(w.reach);
	filter_match_free(&m);
	if (r) {
		free(*shown);
		*shown = NULL;
	}
	return r;
}

/* What view_filter_apply hands to the walk (deep_stack_run). */
struct apply_job {
	const struct filter_opts *f;
	const struct fdr_trace *t;
	const struct call_forest *cf;
	const struct symbols *syms;
	uint8_t **shown;
};

static int apply_marks(void *ctx)
{
	struct apply_job *j = ctx;

	return view_filter_marks(j->f, j->t, j->cf, j->syms, j->shown);
}

int view_filter_apply(const struct filter_opts *f, struct fdr_trace *t,
		      const struct symbols *syms, const char *who)
{
	struct call_forest cf;
	uint8_t *shown = NULL;
	int r;

	if (!filter_opts_active(f))
		return 0;
	r = view_filter_check(f, t, syms, who);
	if (r)
		return r;
	r = call_forest_build(&cf, t);
	if (r == 0) {
		struct apply_job job = { f, t, &cf, syms, &shown };

		r = deep_stack_run(cf.max_depth, apply_marks, &job);
		if (r == 0)
			r = rebuild(t, &cf, shown);
		free(shown);
		call_forest_free(&cf);
	}
	if (r)
		fprintf(stderr, "%s: out of memory\n", who);
	return r ? 1 : 0;
}
