// SPDX-License-Identifier: MIT
/*
 * account.c - per-function latency statistics, tolerant of what a flight
 * recorder keeps: an exit whose entry was overwritten is counted as an
 * "exit without entry", a call still open at the end as "open", and
 * neither stops the report (llvm-xray account aborts on both without -k).
 *
 * Matching follows llvm-xray account: records in expansion order (not
 * sorted), one call stack per thread, latency = exit TSC - entry TSC.  An
 * exit that matches a frame below the top closes the frames above it
 * (counted as "unwound": their exits were lost).
 */
#include <stdio.h>
#include <stdlib.h>
#include "array_grow.h"
#include "convert.h"

struct func_stats {
	int32_t fid;
	uint64_t *lat;		/* latencies in ticks */
	size_t n, cap;
	uint64_t orphan_exits, open_calls, unwound;
	double min, med, p90, p99, max, sum;	/* seconds, filled at the end */
};

struct frame { int32_t fid; uint64_t tsc; };

struct thread_stack {
	uint32_t pid, tid;
	struct frame *f;
	size_t n, cap;
};

struct accounting {
	struct func_stats *funcs;
	size_t nfuncs, capfuncs;
	size_t *slot;		/* hash of fid -> funcs index + 1 */
	size_t nslots;
	struct thread_stack *threads;
	size_t nthreads;
};

static int rehash(struct accounting *a)
{
	size_t n = a->nslots ? a->nslots * 2 : 1024;
	size_t *slot = calloc(n, sizeof(*slot));

	if (!slot)
		return -1;
	for (size_t i = 0; i < a->nfuncs; i++) {
		size_t h = ((uint32_t)a->funcs[i].fid * 2654435761u) & (n - 1);

		while (slot[h])
			h = (h + 1) & (n - 1);
		slot[h] = i + 1;
	}
	free(a->slot);
	a->slot = slot;
	a->nslots = n;
	return 0;
}

static struct func_stats *func_of(struct accounting *a, int32_t fid)
{
	size_t h;

	if ((a->nfuncs + 1) * 2 > a->nslots && rehash(a))
		return NULL;
	h = ((uint32_t)fid * 2654435761u) & (a->nslots - 1);
	for (; a->slot[h]; h = (h + 1) & (a->nslots - 1))
		if (a->funcs[a->slot[h] - 1].fid == fid)
			return &a->funcs[a->slot[h] - 1];
	if (array_grow((void **)&a->funcs, &a->capfuncs, a->nfuncs + 1, sizeof(*a->funcs)))
		return NULL;
	memset(&a->funcs[a->nfuncs], 0, sizeof(*a->funcs));
	a->funcs[a->nfuncs].fid = fid;
	a->slot[h] = ++a->nfuncs;
	return &a->funcs[a->nfuncs - 1];
}

static struct thread_stack *stack_of(struct accounting *a, uint32_t pid, uint32_t tid)
{
	struct thread_stack *t;

	for (size_t i = 0; i < a->nthreads; i++)
		if (a->threads[i].pid == pid && a->threads[i].tid == tid)
			return &a->threads[i];
	t = realloc(a->threads, (a->nthreads + 1) * sizeof(*t));
	if (!t)
		return NULL;
	a->threads = t;
	t = &a->threads[a->nthreads++];
	memset(t, 0, sizeof(*t));
	t->pid = pid;
	t->tid = tid;
	return t;
}

static int add_latency(struct accounting *a, int32_t fid, uint64_t ticks)
{
	struct func_stats *f = func_of(a, fid);

	if (!f || array_grow((void **)&f->lat, &f->cap, f->n + 1, sizeof(*f->lat)))
		return -1;
	f->lat[f->n++] = ticks;
	return 0;
}

static int on_exit_event(struct accounting *a, struct thread_stack *s, const struct fdr_event *ev)
{
	size_t i = s->n;
	struct func_stats *f;

	while (i > 0 && s->f[i - 1].fid != ev->func_id)
		i--;
	if (i == 0) {
		f = func_of(a, ev->func_id);
		if (!f)
			return -1;
		f->orphan_exits++;
		return 0;
	}
	for (size_t k = i; k < s->n; k++) {
		f = func_of(a, s->f[k].fid);
		if (!f)
			return -1;
		f->unwound++;
	}
	s->n = i - 1;
	return add_latency(a, ev->func_id, ev->tsc > s->f[i - 1].tsc ?
			   ev->tsc - s->f[i - 1].tsc : s->f[i - 1].tsc - ev->tsc);
}

static int account_event(struct accounting *a, const struct fdr_event *ev)
{
	struct thread_stack *s;

	if (ev->kind >= FDR_EVENT_CUSTOM)
		return 0;
	s = stack_of(a, ev->pid, ev->tid);
	if (!s)
		return -1;
	if (ev->kind == FDR_EVENT_ENTER || ev->kind == FDR_EVENT_ENTER_ARG) {
		if (array_grow((void **)&s->f, &s->cap, s->n + 1, sizeof(*s->f)))
			return -1;
		s->f[s->n++] = (struct frame){ ev->func_id, ev->tsc };
		return 0;
	}
	return on_exit_event(a, s, ev);
}

static int count_open_calls(struct accounting *a)
{
	for (size_t i = 0; i < a->nthreads; i++) {
		for (size_t k = 0; k < a->threads[i].n; k++) {
			struct func_stats *f = func_of(a, a->threads[i].f[k].fid);

			if (!f)
				return -1;
			f->open_calls++;
		}
	}
	return 0;
}

static int cmp_u64(const void *x, const void *y)
{
	uint64_t a = *(const uint64_t *)x, b = *(const uint64_t *)y;

	return a < b ? -1 : a > b;
}

/* Order statistics as llvm-xray account picks them: element [n * p]. */
static void summarize(struct func_stats *f, double freq)
{
	uint64_t sum = 0;

	if (!f->n)
		return;
	qsort(f->lat, f->n, sizeof(*f->lat), cmp_u64);
	for (size_t i = 0; i < f->n; i++)
		sum += f->lat[i];
	f->min = (double)f->lat[0] / freq;
	f->med = (double)f->lat[f->n / 2] / freq;
	f->p90 = (double)f->lat[(size_t)((double)f->n * 0.9)] / freq;
	f->p99 = (double)f->lat[(size_t)((double)f->n * 0.99)] / freq;
	f->max = (double)f->lat[f->n - 1] / freq;
	f->sum = (double)sum / freq;
}

static double key_of(const struct func_stats *f, enum account_sort key)
{
	switch (key) {
	case SORT_COUNT: return (double)f->n;
	case SORT_MIN: return f->min;
	case SORT_MED: return f->med;
	case SORT_P90: return f->p90;
	case SORT_P99: return f->p99;
	case SORT_MAX: return f->max;
	case SORT_SUM: return f->sum;
	default: return (double)f->fid;
	}
}

static int cmp_funcs(const void *x, const void *y, void *arg)
{
	const struct func_stats *a = x, *b = y;
	const struct account_options *opt = arg;
	double ka = key_of(a, opt->sort), kb = key_of(b, opt->sort);
	int c = ka < kb ? -1 : ka > kb;

	if (!c)
		c = a->fid < b->fid ? -1 : a->fid > b->fid;
	return opt->descending ? -c : c;
}

static void print_table(struct out_buffer *o, struct accounting *a,
			const struct symbols *syms, const struct account_options *opt)
{
	size_t shown = 0, orphans = 0, open = 0, unwound = 0;
	char tmp[64];

	out_str(o, syms ? "funcid      count  min            med            90p            "
		   "99p            max            sum            function\n"
		   : "funcid      count  min            med            90p            "
		   "99p            max            sum\n");
	for (size_t i = 0; i < a->nfuncs; i++) {
		struct func_stats *f = &a->funcs[i];

		orphans += f->orphan_exits;
		open += f->open_calls;
		unwound += f->unwound;
		if (!f->n || (opt->top && shown >= opt->top))
			continue;
		shown++;
		out_printf(o, "%-10d %6zu  %-13.9f  %-13.9f  %-13.9f  %-13.9f  %-13.9f  %.9f",
			   f->fid, f->n, f->min, f->med, f->p90, f->p99, f->max, f->sum);
		if (syms)
			out_printf(o, "    %s", symbols_name(syms, f->fid, tmp, sizeof(tmp)));
		out_char(o, '\n');
	}
	out_printf(o, "functions with latencies: %zu\n", shown);
	out_printf(o, "exits without entry: %zu\ncalls open at the end: %zu\n"
		   "frames unwound by a deeper exit: %zu\n", orphans, open, unwound);
	for (size_t i = 0; i < a->nfuncs; i++) {
		struct func_stats *f = &a->funcs[i];

		if (f->orphan_exits || f->open_calls || f->unwound)
			out_printf(o, "  funcid %d: %llu exits without entry, %llu open, %llu unwound%s%s\n",
				   f->fid, (unsigned long long)f->orphan_exits,
				   (unsigned long long)f->open_calls,
				   (unsigned long long)f->unwound, syms ? "  " : "",
				   syms ? symbols_name(syms, f->fid, tmp, sizeof(tmp)) : "");
	}
}

static void accounting_free(struct accounting *a)
{
	for (size_t i = 0; i < a->nfuncs; i++)
		free(a->funcs[i].lat);
	for (size_t i = 0; i < a->nthreads; i++)
		free(a->threads[i].f);
	free(a->funcs);
	free(a->slot);
	free(a->threads);
}

int write_account(struct out_buffer *o, const struct fdr_trace *t,
		  const struct symbols *syms, const struct account_options *opt)
{
	struct accounting a = { 0 };
	uint64_t hz = fdr_log_get_header(t->log)->cycle_frequency;
	double freq = hz ? (double)hz : 1.0;
	int ret = -1;

	for (size_t i = 0; i < t->count; i++)
		if (account_event(&a, fdr_trace_at(t, i)))
			goto out;
	if (count_open_calls(&a))
		goto out;
	for (size_t i = 0; i < a.nfuncs; i++)
		summarize(&a.funcs[i], freq);
	/* func_of's index is stale after sorting; nothing looks up after this. */
	if (a.nfuncs)
		qsort_r(a.funcs, a.nfuncs, sizeof(*a.funcs), cmp_funcs, (void *)opt);
	print_table(o, &a, syms, opt);
	ret = 0;
out:
	accounting_free(&a);
	return ret;
}
