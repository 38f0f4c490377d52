// SPDX-License-Identifier: MIT
/* log_check.c - see log_check.h. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/fdr_log.h>
#include "log_check.h"
#include "pattern.h"

/* Steps inside a pair after its EnterArg. */
enum { WANT_INNER_ENTER, WANT_INNER_EXIT, WANT_OUTER_EXIT };

/* One tid's stream as it is read. */
struct stream {
	int32_t tid;
	struct uid_run *cur;		/* the run being read */
	bool floating;			/* no pair started since the stream's
					 * start or lost buffers */
	const struct scan_event *head[3];	/* records seen meanwhile */
	size_t nhead;
};

static void failure(struct check_result *r, const char *fmt, ...)
{
	va_list ap;

	if (r->failures++ == 0) {
		va_start(ap, fmt);
		vsnprintf(r->first_failure, sizeof(r->first_failure), fmt, ap);
		va_end(ap);
	}
}

static struct uid_run *new_run(struct check_result *r, uint32_t uid,
			       int32_t tid, uint64_t k)
{
	struct uid_run *p = realloc(r->runs, (r->nr_runs + 1) * sizeof(*p));

	if (!p) {
		failure(r, "out of memory");
		return NULL;
	}
	r->runs = p;
	p = &r->runs[r->nr_runs++];
	*p = (struct uid_run){ .uid = uid, .tid = tid, .a = k, .b = k,
			       .next_k = k };
	return p;
}

/*
 * The records of pair k of uid after its EnterArg (pattern.h): the most a
 * stream can begin with when the pair's start is not in it.
 */
static size_t pair_tail(uint32_t uid, uint64_t k, uint8_t kind[3], uint32_t fid[3])
{
	size_t n = 0;

	if (pattern_has_inner(k)) {
		kind[n] = FDR_FN_ENTER;
		fid[n++] = pattern_inner(uid, k);
		kind[n] = FDR_FN_EXIT;
		fid[n++] = pattern_inner(uid, k);
	}
	kind[n] = FDR_FN_EXIT;
	fid[n++] = pattern_outer(uid, k);
	return n;
}

/* The records before the first EnterArg (uid, k) of a stream or of a
 * segment after lost buffers: the end of pair k - 1, nothing else. */
static bool head_fits(struct check_result *r, const struct stream *st,
		      uint32_t uid, uint64_t k)
{
	uint8_t kind[3];
	uint32_t fid[3];
	size_t n = k ? pair_tail(uid, k - 1, kind, fid) : 0;

	if (st->nhead > n)
		goto bad;
	for (size_t i = 0; i < st->nhead; i++)
		if (st->head[i]->kind != kind[n - st->nhead + i] ||
		    st->head[i]->fid != fid[n - st->nhead + i])
			goto bad;
	return true;
bad:
	failure(r, "offset %llu: tid %d: %zu records before uid %u pair %llu are not the end of its pair %llu",
		(unsigned long long)st->head[0]->offset, st->tid, st->nhead, uid,
		(unsigned long long)k, (unsigned long long)(k - 1));
	return false;
}

/* An EnterArg: the next pair of the current run, or a new run. */
static bool pair_start(struct check_result *r, struct stream *st,
		       const struct scan_event *e)
{
	struct uid_run *cur = st->cur;
	uint32_t uid = (uint32_t)(e->arg >> 32);
	uint64_t k = (uint32_t)e->arg;

	if (!e->has_arg) {
		failure(r, "offset %llu: EnterArg without its argument",
			(unsigned long long)e->offset);
		return false;
	}
	if (e->fid != pattern_outer(uid, k)) {
		failure(r, "offset %llu: EnterArg fid %u, want %u for uid %u pair %llu",
			(unsigned long long)e->offset, e->fid,
			pattern_outer(uid, k), uid, (unsigned long long)k);
		return false;
	}
	if (st->floating && !head_fits(r, st, uid, k))
		return false;
	if (cur && cur->uid == uid) {
		/* after lost buffers: later pairs only, never one again */
		bool ok = st->floating ? k >= cur->next_k : k == cur->next_k;

		if (cur->pair_open || !ok) {
			failure(r, "offset %llu: tid %d uid %u: pair %llu follows %s pair %llu",
				(unsigned long long)e->offset, st->tid, uid,
				(unsigned long long)k,
				cur->pair_open ? "the unfinished" : "the complete",
				(unsigned long long)(cur->next_k - !cur->pair_open));
			return false;
		}
		cur->next_k = k;
	} else {
		/* cur ends here; a cut last pair is a killed thread's */
		cur = new_run(r, uid, st->tid, k);
		if (!cur)
			return false;
	}
	st->cur = cur;
	st->floating = false;
	st->nhead = 0;
	cur->pair_open = 1;
	cur->step = pattern_has_inner(k) ? WANT_INNER_ENTER : WANT_OUTER_EXIT;
	return true;
}

/* The record the open pair of cur wants next. */
static void want_next(const struct uid_run *cur, uint8_t *kind, uint32_t *fid)
{
	uint64_t k = cur->next_k;

	*fid = cur->step == WANT_OUTER_EXIT ? pattern_outer(cur->uid, k)
					    : pattern_inner(cur->uid, k);
	*kind = cur->step == WANT_INNER_ENTER ? FDR_FN_ENTER : FDR_FN_EXIT;
}

/* Enter/Exit inside the open pair of cur; false on a mismatch. */
static bool pair_step(struct check_result *r, struct uid_run *cur,
		      const struct scan_event *e)
{
	uint64_t k = cur->next_k;
	uint32_t want_fid;
	uint8_t want_kind;

	want_next(cur, &want_kind, &want_fid);
	if (!cur->pair_open || e->kind != want_kind || e->fid != want_fid) {
		failure(r, "offset %llu: tid %d uid %u pair %llu: kind %u fid %u, want kind %u fid %u",
			(unsigned long long)e->offset, cur->tid, cur->uid,
			(unsigned long long)k, e->kind, e->fid, want_kind, want_fid);
		return false;
	}
	if (cur->step++ != WANT_OUTER_EXIT)
		return true;
	/* pair k complete */
	if (cur->pairs++ == 0)
		cur->a = k;
	cur->b = k;
	cur->next_k = k + 1;
	cur->pair_open = 0;
	r->pairs++;
	r->records_checked += pattern_records(k);
	return true;
}

/* Does the stream go on at e, the first record of a buffer? */
static bool goes_on(const struct uid_run *cur, const struct scan_event *e)
{
	uint32_t fid;
	uint8_t kind;

	if (!cur->pair_open)
		return e->kind == FDR_FN_ENTER_ARG && e->has_arg &&
		       e->arg == pattern_arg(cur->uid, cur->next_k);
	want_next(cur, &kind, &fid);
	return e->kind == kind && e->fid == fid;
}

/*
 * A buffer of an overwritten ring that does not go on where the stream
 * stopped: the buffers between were recycled.  The pair cut there is
 * lost; what follows is checked as a stream's start is.
 */
static void lost_buffers(struct stream *st)
{
	if (st->cur->pair_open)
		st->cur->next_k++;
	st->cur->pair_open = 0;
	st->floating = true;
	st->nhead = 0;
}

/* One record of a stream; false ends the stream's check. */
static bool stream_event(struct check_result *r, struct stream *st,
			 const struct scan_event *e)
{
	if (e->kind == FDR_FN_ENTER_ARG)
		return pair_start(r, st, e);
	if (!st->floating)
		return pair_step(r, st->cur, e);
	/* the tail of a pair whose start is not in the log: held until the
	 * next EnterArg says which pair that was */
	if (st->nhead == 3) {
		failure(r, "offset %llu: tid %d stream starts with %zu records that are no pair",
			(unsigned long long)e->offset, st->tid, st->nhead + 1);
		return false;
	}
	st->head[st->nhead++] = e;
	return true;
}

static int by_tid_then_index(const void *a, const void *b)
{
	const struct scan_buffer *x = *(const struct scan_buffer *const *)a;
	const struct scan_buffer *y = *(const struct scan_buffer *const *)b;

	if (x->tid != y->tid)
		return x->tid < y->tid ? -1 : 1;
	return x < y ? -1 : x > y;
}

/* One tid's stream: its buffers [i, j) of the sorted index. */
static void check_stream(const struct scan_log *log,
			 const struct scan_buffer *const *bufs, size_t nb,
			 bool overwritten, struct check_result *r)
{
	struct stream st = { .tid = nb ? bufs[0]->tid : 0, .floating = true };

	for (size_t i = 0; i < nb; i++) {
		const struct scan_buffer *b = bufs[i];

		if (overwritten && st.cur && !st.floating && b->count &&
		    !goes_on(st.cur, &log->ev[b->first]))
			lost_buffers(&st);
		for (size_t j = b->first; j < b->first + b->count; j++)
			if (!stream_event(r, &st, &log->ev[j]))
				return;
	}
}

static int by_uid(const void *a, const void *b)
{
	const struct uid_run *x = a, *y = b;

	return x->uid < y->uid ? -1 : x->uid > y->uid;
}

void check_pattern(const struct scan_log *log, bool overwritten,
		   struct check_result *r)
{
	const struct scan_buffer **idx = calloc(log->nr_buf + 1, sizeof(*idx));
	size_t i = 0;

	if (!idx) {
		failure(r, "out of memory");
		return;
	}
	for (size_t k = 0; k < log->nr_buf; k++)
		idx[k] = &log->buf[k];
	qsort(idx, log->nr_buf, sizeof(*idx), by_tid_then_index);
	while (i < log->nr_buf) {
		size_t j = i;

		while (j < log->nr_buf && idx[j]->tid == idx[i]->tid)
			j++;
		check_stream(log, idx + i, j - i, overwritten, r);
		i = j;
	}
	free(idx);
	/* Runs with no complete pair say nothing; a uid twice is a hole.
	 * (No run at all: runs is NULL, which qsort may not be given.) */
	if (r->nr_runs)
		qsort(r->runs, r->nr_runs, sizeof(*r->runs), by_uid);
	for (i = 1; i < r->nr_runs; i++)
		if (r->runs[i].uid == r->runs[i - 1].uid)
			failure(r, "uid %u appears in two runs (tids %d and %d): pairs lost or reordered",
				r->runs[i].uid, r->runs[i - 1].tid, r->runs[i].tid);
}

static const struct uid_run *find_run(const struct check_result *r, uint32_t uid)
{
	struct uid_run key = { .uid = uid };

	if (!r->nr_runs)
		return NULL;	/* runs is NULL: not for bsearch */
	return bsearch(&key, r->runs, r->nr_runs, sizeof(key), by_uid);
}

void check_tally(const struct tally *t, uint64_t from, uint32_t generation,
		 struct check_result *r)
{
	uint64_t n = tally_count(t);

	for (uint64_t i = from; i < n; i++) {
		const struct tally_entry *e = tally_get(t, i);
		const struct uid_run *run;
		uint64_t first, last;

		if (!e || e->generation != generation)
			continue;
		first = e->first_k;
		last = __atomic_load_n(&e->last_k, __ATOMIC_ACQUIRE);
		r->confirmed_ranges++;
		r->confirmed_pairs += last - first + 1;
		run = find_run(r, e->uid);
		if (!run || run->pairs == 0 || run->a > first || run->b < last)
			failure(r, "generation %u: uid %u (pid %d tid %d) confirmed pairs %llu..%llu, the log has %s%llu..%llu",
				generation, e->uid, e->pid, e->tid,
				(unsigned long long)first, (unsigned long long)last,
				run ? "" : "none ",
				(unsigned long long)(run ? run->a : 0),
				(unsigned long long)(run ? run->b : 0));
	}
}

void check_result_free(struct check_result *r)
{
	free(r->runs);
	memset(r, 0, sizeof(*r));
}
