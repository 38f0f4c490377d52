// SPDX-License-Identifier: MIT
/* report_stats.c - the per-function table of `fdr report` (report.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "call_walk.h"
#include "drop_tally.h"
#include "report.h"
#include "sched_time.h"
#include "symbols.h"

struct ctx {
	struct report *r;
	const struct report_opts *o;
	const struct symbols *syms;
};

static int rehash(struct report *r)
{
	size_t n = r->nslots ? r->nslots * 2 : 1024;
	size_t *slot = calloc(n, sizeof(*slot));

	if (!slot)
		return -1;
	for (size_t i = 0; i < r->nfuncs; i++) {
		size_t h = ((uint32_t)r->funcs[i].fid * 2654435761u) & (n - 1);

		while (slot[h])
			h = (h + 1) & (n - 1);
		slot[h] = i + 1;
	}
	free(r->slot);
	r->slot = slot;
	r->nslots = n;
	return 0;
}

char *fdr__report_name(const struct symbols *syms, int32_t fid)
{
	char tmp[64];

	if (syms)
		return fdr__demangle(symbols_name(syms, fid, tmp, sizeof(tmp)));
	snprintf(tmp, sizeof(tmp), "#%d", fid);
	return strdup(tmp);
}

static int add_func(struct ctx *c, int32_t fid, size_t h)
{
	struct report *r = c->r;
	struct report_func *f;

	f = realloc(r->funcs, (r->nfuncs + 1) * sizeof(*f));
	if (!f)
		return -1;
	r->funcs = f;
	f = &r->funcs[r->nfuncs];
	memset(f, 0, sizeof(*f));
	f->fid = fid;
	f->name = fdr__report_name(c->syms, fid);
	if (!f->name)
		return -1;
	r->slot[h] = ++r->nfuncs;
	return 0;
}

static struct report_func *func_of(struct ctx *c, int32_t fid)
{
	struct report *r = c->r;
	size_t h;

	if ((r->nfuncs + 1) * 2 > r->nslots && rehash(r))
		return NULL;
	h = ((uint32_t)fid * 2654435761u) & (r->nslots - 1);
	for (; r->slot[h]; h = (h + 1) & (r->nslots - 1))
		if (r->funcs[r->slot[h] - 1].fid == fid)
			return &r->funcs[r->slot[h] - 1];
	return add_func(c, fid, h) ? NULL : &r->funcs[r->nfuncs - 1];
}

static int on_call(void *ctx, const struct call_done *d)
{
	struct ctx *c = ctx;
	const struct call_frame *fr = &d->frames[d->depth];
	struct report_func *f = func_of(c, fr->fid);

	if (!f)
		return -1;
	f->calls++;
	f->self_ticks += d->ticks > fr->child_ticks ? d->ticks - fr->child_ticks : 0;
	/* an enclosing call of f that the report keeps has this time already */
	if (call_is_nested(d, 0))
		return 0;
	f->total_ticks += d->ticks;
	if (c->r->sched)
		sched_add_call(&f->sched, c->r->sched, d);
	return 0;
}

static int on_orphan(void *ctx, const struct fdr_event *ev)
{
	(void)ev;
	((struct ctx *)ctx)->r->orphan_exits++;
	return 0;
}

static int on_unwound(void *ctx, int32_t fid)
{
	(void)fid;
	((struct ctx *)ctx)->r->unwound++;
	return 0;
}

static int on_open(void *ctx, uint32_t pid, uint32_t tid, int32_t fid)
{
	(void)pid;
	(void)tid;
	(void)fid;
	((struct ctx *)ctx)->r->open_calls++;
	return 0;
}

static int cmp_funcs(const void *x, const void *y, void *arg)
{
	const struct report_func *a = x, *b = y;
	enum report_sort s = *(const enum report_sort *)arg;
	uint64_t ka = 0, kb = 0;
	int c = 0;

	switch (s) {
	case SORT_TOTAL: ka = a->total_ticks; kb = b->total_ticks; break;
	case SORT_SELF: ka = a->self_ticks; kb = b->self_ticks; break;
	case SORT_CALLS: ka = a->calls; kb = b->calls; break;
	case SORT_NAME: c = strcmp(a->name, b->name); break;
	case SORT_ID: break;
	case SORT_ON_CPU: ka = a->sched.on_cpu; kb = b->sched.on_cpu; break;
	case SORT_RUNNABLE: ka = a->sched.runnable; kb = b->sched.runnable; break;
	case SORT_BLOCKED: ka = a->sched.blocked; kb = b->sched.blocked; break;
	}
	if (!c)
		c = ka > kb ? -1 : ka < kb;	/* numbers: largest first */
	if (!c)
		c = a->fid < b->fid ? -1 : a->fid > b->fid;
	return c;
}

/* Drop the functions no kept call counted (callers seen only by filters). */
static void drop_uncalled(struct report *r)
{
	size_t kept = 0;

	for (size_t i = 0; i < r->nfuncs; i++) {
		if (r->funcs[i].calls)
			r->funcs[kept++] = r->funcs[i];
		else
			free(r->funcs[i].name);
	}
	r->nfuncs = kept;
	free(r->slot);
	r->slot = NULL;
	r->nslots = 0;
}

/* Streaming mode: what the writers dropped is in no count and no time. */
int fdr__report_count_drops(struct report *r, const struct fdr_trace *t,
			    const struct filter_opts *f)
{
	struct drop_tally d;

	r->dropped = 0;
	r->drop_places = 0;
	for (size_t i = 0; i < (f->ntids ? f->ntids : 1); i++) {
		if (drop_tally_build(&d, t, f->ntids ? (long)f->tids[i] : -1))
			return -1;
		r->dropped += d.records;
		r->drop_places += d.places;
		drop_tally_free(&d);
	}
	return 0;
}

int fdr__report_build(struct report *r, const struct fdr_trace *t, const struct symbols *syms,
		      const struct report_opts *o, const struct fdr_sched *sched)
{
	static const struct call_walk_ops ops = { on_call, on_orphan, on_unwound, on_open, NULL };
	struct ctx c = { r, o, syms };
	enum report_sort s = o->sort;

	memset(r, 0, sizeof(*r));
	r->hz = fdr_log_get_header(t->log)->cycle_frequency;
	r->sched = sched;
	if (call_walk(t, &ops, &c))
		return -1;
	drop_uncalled(r);
	for (size_t i = 0; i < r->nfuncs; i++)
		r->sched_unknown |= r->funcs[i].sched.unknown != 0;
	if (r->nfuncs)
		qsort_r(r->funcs, r->nfuncs, sizeof(*r->funcs), cmp_funcs, &s);
	return 0;
}

void fdr__report_free(struct report *r)
{
	for (size_t i = 0; i < r->nfuncs; i++)
		free(r->funcs[i].name);
	free(r->funcs);
	free(r->slot);
	memset(r, 0, sizeof(*r));
}

uint64_t fdr__report_ns(const struct report *r, uint64_t ticks)
{
	if (!r->hz)
		return ticks;
	return (uint64_t)((unsigned __int128)ticks * 1000000000u / r->hz);
}
