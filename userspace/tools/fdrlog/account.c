// SPDX-License-Identifier: MIT
/*
 * account.c - per-function latency statistics, tolerant of what a flight
 * recorder keeps: an exit whose entry was overwritten is counted as an
 * "exit without entry", a call still open at the end as "open", and
 * neither stops the report (llvm-xray account aborts on both without -k).
 *
 * Matching is call_walk's (llvm-xray account's rules): records in TSC
 * order, one call stack per thread, latency = exit TSC - entry TSC.  An
 * exit that matches a frame below the top closes the frames above it
 * (counted as "unwound": their exits were lost).  Every call's latency is
 * in the count and the order statistics; the sum and the scheduling
 * columns add only outermost calls (call_is_nested: uftrace's rule, where
 * llvm-xray adds a recursive function's nested frames again).  Linear in
 * records, threads and functions: call_walk's and key_index's.
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "array_grow.h"
#include "call_walk.h"
#include "convert.h"
#include "drop_tally.h"
#include "key_index.h"
#include "sched_time.h"

struct func_stats {
	int32_t fid;
	uint64_t *lat;		/* latencies in ticks */
	size_t n, cap;
	uint64_t total;		/* ticks of the outermost calls */
	uint64_t orphan_exits, open_calls, unwound;
	struct fdr_sched_split sched;	/* ticks, summed over the outermost calls */
	double min, med, p90, p99, max, sum;	/* seconds, filled at the end */
};

struct accounting {
	const struct fdr_sched *sched;
	struct func_stats *funcs;	/* by func_ix index */
	size_t capfuncs;
	struct key_index func_ix;	/* fid, with a seed a crafted log cannot aim at */
};

static struct func_stats *func_of(struct accounting *a, int32_t fid)
{
	bool added;
	int64_t i = key_index_get(&a->func_ix, (uint32_t)fid, &added);

	if (i < 0)
		return NULL;
	if (added) {
		if (array_grow((void **)&a->funcs, &a->capfuncs, (size_t)i + 1, sizeof(*a->funcs)))
			return NULL;
		memset(&a->funcs[i], 0, sizeof(*a->funcs));
		a->funcs[i].fid = fid;
	}
	return &a->funcs[i];
}

static int on_call(void *ctx, const struct call_done *c)
{
	struct accounting *a = ctx;
	struct func_stats *f = func_of(a, c->frames[c->depth].fid);

	if (!f || array_grow((void **)&f->lat, &f->cap, f->n + 1, sizeof(*f->lat)))
		return -1;
	f->lat[f->n++] = c->ticks;
	if (call_is_nested(c, 0))
		return 0;
	f->total += c->ticks;
	if (a->sched)
		sched_add_call(&f->sched, a->sched, c);
	return 0;
}

static int on_orphan_exit(void *ctx, const struct fdr_event *ev)
{
	struct func_stats *f = func_of(ctx, ev->func_id);

	if (!f)
		return -1;
	f->orphan_exits++;
	return 0;
}

static int on_unwound(void *ctx, int32_t fid)
{
	struct func_stats *f = func_of(ctx, fid);

	if (!f)
		return -1;
	f->unwound++;
	return 0;
}

static int on_open_call(void *ctx, uint32_t pid, uint32_t tid, int32_t fid)
{
	struct func_stats *f = func_of(ctx, fid);

	(void)pid;
	(void)tid;
	if (!f)
		return -1;
	f->open_calls++;
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
	if (!f->n)
		return;
	qsort(f->lat, f->n, sizeof(*f->lat), cmp_u64);
	f->min = (double)f->lat[0] / freq;
	f->med = (double)f->lat[f->n / 2] / freq;
	f->p90 = (double)f->lat[(size_t)((double)f->n * 0.9)] / freq;
	f->p99 = (double)f->lat[(size_t)((double)f->n * 0.99)] / freq;
	f->max = (double)f->lat[f->n - 1] / freq;
	f->sum = (double)f->total / freq;
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

static void print_header(struct out_buffer *o, const struct symbols *syms,
			 const struct account_options *opt)
{
	out_str(o, "funcid      count  min            med            90p            "
		"99p            max            sum");
	if (opt->sched)
		out_str(o, "            on-cpu         runnable       blocked");
	out_str(o, syms ? "            function\n" : "\n");
}

/* Inclusive on-CPU, runnable and blocked seconds, as sum is. */
static void print_sched(struct out_buffer *o, const struct func_stats *f, double freq)
{
	out_printf(o, "  %-13.9f  %-13.9f  %.9f", (double)f->sched.on_cpu / freq,
		   (double)f->sched.runnable / freq, (double)f->sched.blocked / freq);
}

static void print_table(struct out_buffer *o, struct accounting *a, const struct symbols *syms,
			const struct account_options *opt, double freq)
{
	size_t shown = 0, orphans = 0, open = 0, unwound = 0;
	uint64_t unknown = 0;
	char tmp[64];

	print_header(o, syms, opt);
	for (size_t i = 0; i < a->func_ix.n; i++) {
		struct func_stats *f = &a->funcs[i];

		orphans += f->orphan_exits;
		open += f->open_calls;
		unwound += f->unwound;
		unknown |= f->sched.unknown;
		if (!f->n || (opt->top && shown >= opt->top))
			continue;
		shown++;
		out_printf(o, "%-10d %6zu  %-13.9f  %-13.9f  %-13.9f  %-13.9f  %-13.9f  %.9f",
			   f->fid, f->n, f->min, f->med, f->p90, f->p99, f->max, f->sum);
		if (opt->sched)
			print_sched(o, f, freq);
		if (syms)
			out_printf(o, "    %s", symbols_name(syms, f->fid, tmp, sizeof(tmp)));
		out_char(o, '\n');
	}
	out_printf(o, "functions with latencies: %zu\n", shown);
	out_printf(o, "exits without entry: %zu\ncalls open at the end: %zu\n"
		   "frames unwound by a deeper exit: %zu\n", orphans, open, unwound);
	if (unknown)	/* the kernel's rings lost records: that time is in no column */
		out_str(o, "scheduling records were lost: time before a thread's first record "
			"is in none of on-cpu, runnable, blocked\n");
	for (size_t i = 0; i < a->func_ix.n; i++) {
		struct func_stats *f = &a->funcs[i];

		if (f->orphan_exits || f->open_calls || f->unwound)
			out_printf(o, "  funcid %d: %llu exits without entry, %llu open, %llu unwound%s%s\n",
				   f->fid, (unsigned long long)f->orphan_exits,
				   (unsigned long long)f->open_calls,
				   (unsigned long long)f->unwound, syms ? "  " : "",
				   syms ? symbols_name(syms, f->fid, tmp, sizeof(tmp)) : "");
	}
}

/* Streaming mode: the writers' drops are missing from every line above. */
static int print_drops(struct out_buffer *o, const struct fdr_trace *t)
{
	char tids[DROP_TALLY_THREADS_MAX];
	struct drop_tally d;

	if (drop_tally_build(&d, t, -1))
		return -1;
	if (d.places) {
		drop_tally_threads(&d, tids);
		out_printf(o, "records dropped by the writers (drop markers): %llu in %zu %s "
			   "(thread%s %s); the table misses their calls\n", (unsigned long long)d.records, d.places,
			   d.places == 1 ? "place" : "places", d.ntids == 1 ? "" : "s", tids);
	}
	drop_tally_free(&d);
	return 0;
}

static void accounting_free(struct accounting *a)
{
	for (size_t i = 0; i < a->func_ix.n; i++)
		free(a->funcs[i].lat);
	free(a->funcs);
	key_index_free(&a->func_ix);
}

int write_account(struct out_buffer *o, const struct fdr_trace *t,
		  const struct symbols *syms, const struct account_options *opt)
{
	struct accounting a = { .sched = opt->sched };
	uint64_t hz = fdr_log_get_header(t->log)->cycle_frequency;
	double freq = hz ? (double)hz : 1.0;
	int ret = -1;

	static const struct call_walk_ops ops = {
		on_call, on_orphan_exit, on_unwound, on_open_call, NULL
	};

	key_index_init(&a.func_ix);
	if (call_walk(t, &ops, &a))
		goto out;
	for (size_t i = 0; i < a.func_ix.n; i++)
		summarize(&a.funcs[i], freq);
	/* func_of's index is stale after sorting; nothing looks up after this. */
	if (a.func_ix.n)
		qsort_r(a.funcs, a.func_ix.n, sizeof(*a.funcs), cmp_funcs, (void *)opt);
	print_table(o, &a, syms, opt, freq);
	ret = print_drops(o, t);
out:
	accounting_free(&a);
	return ret;
}
