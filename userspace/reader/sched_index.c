// SPDX-License-Identifier: MIT
/*
 * sched_index.c - a .sched file's records by thread, with each record's
 * resulting state and running sums of the ticks spent in each state, so
 * that the split of any interval is two binary searches
 * (fdr_sched_thread_split()): a report asks once per call, and logs have
 * millions of calls.
 *
 * The rules are format.md's: on CPU from a SWITCH_IN, runnable from a
 * SWITCH_OUT in state 0 or a WAKEUP, blocked from a SWITCH_OUT in states
 * 1-3; before a thread's first record, what that record implies (unknown
 * when the kernel's rings lost records).  One more: a WAKEUP of a thread
 * that is on its CPU (woken between setting its state and switching out)
 * leaves it there, as the kernel does.
 */
#include <stdlib.h>
#include "internal.h"

static int by_thread(const void *x, const void *y, void *records)
{
	const struct fdr_sched_record *r = records;
	size_t i = *(const size_t *)x, j = *(const size_t *)y;

	if (r[i].tid != r[j].tid)
		return r[i].tid < r[j].tid ? -1 : 1;
	if (r[i].tsc != r[j].tsc)
		return r[i].tsc < r[j].tsc ? -1 : 1;
	return i < j ? -1 : i > j;	/* file order: the sort is stable */
}

/* Records by (tid, tsc), stable: the file promises TSC order, we do not rely on it. */
static int sort_records(struct fdr_sched *s)
{
	size_t *ix = malloc((s->count ? s->count : 1) * sizeof(*ix));
	struct fdr_sched_record *sorted = malloc((s->count ? s->count : 1) * sizeof(*sorted));

	if (!ix || !sorted) {
		free(ix);
		free(sorted);
		return -1;
	}
	for (size_t i = 0; i < s->count; i++)
		ix[i] = i;
	qsort_r(ix, s->count, sizeof(*ix), by_thread, s->records);
	for (size_t i = 0; i < s->count; i++)
		sorted[i] = s->records[ix[i]];
	free(ix);
	free(s->records);
	s->records = sorted;
	return 0;
}

static uint8_t state_after(uint8_t prev, const struct fdr_sched_record *r)
{
	switch (r->type) {
	case FDR_SCHED_SWITCH_OUT:
		return r->state == FDR_SCHED_RUNNABLE ? FDR_THREAD_RUNNABLE :
		       r->state == FDR_SCHED_SLEEPING ? FDR_THREAD_SLEEPING :
		       r->state == FDR_SCHED_DISK ? FDR_THREAD_DISK : FDR_THREAD_OTHER;
	case FDR_SCHED_SWITCH_IN:
		return FDR_THREAD_ON_CPU;
	default:	/* FDR_SCHED_WAKEUP */
		return prev == FDR_THREAD_ON_CPU || prev == FDR_THREAD_RUNNABLE ?
		       prev : FDR_THREAD_RUNNABLE;
	}
}

static uint8_t state_before(const struct fdr_sched *s, const struct fdr_sched_record *first)
{
	if (s->header.records_lost)
		return FDR_THREAD_UNKNOWN;
	return first->type == FDR_SCHED_SWITCH_OUT ? FDR_THREAD_ON_CPU :
	       first->type == FDR_SCHED_SWITCH_IN ? FDR_THREAD_RUNNABLE : FDR_THREAD_SLEEPING;
}

static int class_of(uint8_t state)
{
	switch (state) {
	case FDR_THREAD_ON_CPU: return SCHED_ON_CPU;
	case FDR_THREAD_RUNNABLE: return SCHED_RUNNABLE;
	case FDR_THREAD_UNKNOWN: return SCHED_UNKNOWN;
	default: return SCHED_BLOCKED;
	}
}

/* States and running sums of the thread whose records start at first. */
static void index_thread(struct fdr_sched *s, struct fdr_sched_thread *th, size_t first)
{
	uint8_t prev = state_before(s, &s->records[first]);

	th->tid = s->records[first].tid;
	th->pid = s->records[first].pid;
	th->state_before = prev;
	th->records = &s->records[first];
	th->state_after = &s->state_after[first];
	for (size_t i = first; i < s->count && s->records[i].tid == th->tid; i++) {
		s->state_after[i] = prev = state_after(prev, &s->records[i]);
		if (i == first) {
			memset(s->ticks_before[i], 0, sizeof(s->ticks_before[i]));
		} else {
			memcpy(s->ticks_before[i], s->ticks_before[i - 1], sizeof(s->ticks_before[i]));
			s->ticks_before[i][class_of(s->state_after[i - 1])] +=
				s->records[i].tsc - s->records[i - 1].tsc;
		}
		th->count++;
	}
}

int sched_index_build(struct fdr_sched *s)
{
	size_t n = s->count ? s->count : 1;

	if (sort_records(s))
		return -1;
	s->state_after = malloc(n);
	s->ticks_before = malloc(n * sizeof(*s->ticks_before));
	s->threads = calloc(n, sizeof(*s->threads));
	if (!s->state_after || !s->ticks_before || !s->threads)
		return -1;
	for (size_t i = 0; i < s->count; i += s->threads[s->nthreads++].count)
		index_thread(s, &s->threads[s->nthreads], i);
	return 0;
}

size_t fdr_sched_thread_count(const struct fdr_sched *s)
{
	return s ? s->nthreads : 0;
}

const struct fdr_sched_thread *fdr_sched_thread_at(const struct fdr_sched *s, size_t i)
{
	return s && i < s->nthreads ? &s->threads[i] : NULL;
}

const struct fdr_sched_thread *fdr_sched_thread_find(const struct fdr_sched *s, int32_t tid)
{
	size_t lo = 0, hi = s ? s->nthreads : 0;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (s->threads[mid].tid < tid)
			lo = mid + 1;
		else
			hi = mid;
	}
	return s && lo < s->nthreads && s->threads[lo].tid == tid ? &s->threads[lo] : NULL;
}

/* Index of th's last record at or before tsc (th->records[0].tsc <= tsc). */
static size_t last_at_or_before(const struct fdr_sched_thread *th, uint64_t tsc)
{
	size_t lo = 1, hi = th->count;

	while (lo < hi) {	/* the first record after tsc */
		size_t mid = lo + (hi - lo) / 2;

		if (th->records[mid].tsc <= tsc)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo - 1;
}

enum fdr_thread_state fdr_sched_state_at(const struct fdr_sched *s, int32_t tid, uint64_t tsc)
{
	const struct fdr_sched_thread *th = fdr_sched_thread_find(s, tid);

	if (!th)
		return s && s->header.records_lost ? FDR_THREAD_UNKNOWN : FDR_THREAD_ON_CPU;
	if (tsc < th->records[0].tsc)
		return th->state_before;
	return th->state_after[last_at_or_before(th, tsc)];
}

/* Ticks by class from th's first record to tsc (>= that record's). */
static void ticks_to(const struct fdr_sched *s, const struct fdr_sched_thread *th,
		     uint64_t tsc, uint64_t out[SCHED_NCLASSES])
{
	size_t k = last_at_or_before(th, tsc);
	size_t at = (size_t)(th->records - s->records) + k;

	memcpy(out, s->ticks_before[at], sizeof(s->ticks_before[at]));
	out[class_of(th->state_after[k])] += tsc - th->records[k].tsc;
}

void fdr_sched_thread_split(const struct fdr_sched *s, int32_t tid, uint64_t a, uint64_t b,
			    struct fdr_sched_split *out)
{
	const struct fdr_sched_thread *th = fdr_sched_thread_find(s, tid);
	uint64_t c[SCHED_NCLASSES] = { 0 }, fa[SCHED_NCLASSES], fb[SCHED_NCLASSES];
	uint64_t first;

	memset(out, 0, sizeof(*out));
	if (b <= a)
		return;
	if (!th) {
		c[fdr_sched_state_at(s, tid, a) == FDR_THREAD_UNKNOWN ? SCHED_UNKNOWN
								      : SCHED_ON_CPU] = b - a;
	} else {
		first = th->records[0].tsc;
		if (a < first)
			c[class_of(th->state_before)] = (b < first ? b : first) - a;
		if (b > first) {
			ticks_to(s, th, a > first ? a : first, fa);
			ticks_to(s, th, b, fb);
			for (int i = 0; i < SCHED_NCLASSES; i++)
				c[i] += fb[i] - fa[i];
		}
	}
	out->on_cpu = c[SCHED_ON_CPU];
	out->runnable = c[SCHED_RUNNABLE];
	out->blocked = c[SCHED_BLOCKED];
	out->unknown = c[SCHED_UNKNOWN];
}
