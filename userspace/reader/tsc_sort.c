// SPDX-License-Identifier: MIT
/*
 * tsc_sort.c - stable sort of events by TSC (llvm-xray uses
 * std::stable_sort).
 *
 * Expanded events come thread by thread, and each thread's TSCs mostly
 * increase, so the array is a few long ascending runs: when there are few
 * runs we merge them with a heap (ties go to the earlier run, which keeps
 * the sort stable).  Otherwise (hostile or odd logs) an LSD radix sort on
 * (tsc, index) pairs, one byte per pass, skipping the bytes in which all
 * keys agree.
 */
#include <stdlib.h>
#include "internal.h"

struct keyed {
	uint64_t tsc;
	uint32_t index;
};

static void count_digits(const struct keyed *a, size_t n, size_t (*hist)[256])
{
	for (size_t i = 0; i < n; i++)
		for (int d = 0; d < 8; d++)
			hist[d][(a[i].tsc >> (8 * d)) & 0xff]++;
}

static void scatter(const struct keyed *src, struct keyed *dst, size_t n, int d,
		    size_t *hist)
{
	size_t pos = 0;

	for (int b = 0; b < 256; b++) {
		size_t c = hist[b];

		hist[b] = pos;
		pos += c;
	}
	for (size_t i = 0; i < n; i++)
		dst[hist[(src[i].tsc >> (8 * d)) & 0xff]++] = src[i];
}

static int radix_sort(const struct fdr_event *events, size_t n, uint32_t *order)
{
	struct keyed *a = malloc(sizeof(*a) * (n + 1)), *b = malloc(sizeof(*b) * (n + 1));
	size_t (*hist)[256] = calloc(8, sizeof(*hist));

	if (!a || !b || !hist) {
		free(a);
		free(b);
		free(hist);
		return -1;
	}
	for (size_t i = 0; i < n; i++)
		a[i] = (struct keyed){ events[i].tsc, (uint32_t)i };
	count_digits(a, n, hist);
	for (int d = 0; d < 8; d++) {
		struct keyed *t;

		if (n == 0 || hist[d][(a[0].tsc >> (8 * d)) & 0xff] == n)
			continue;	/* every key has the same byte here */
		scatter(a, b, n, d, hist[d]);
		t = a;
		a = b;
		b = t;
	}
	for (size_t i = 0; i < n; i++)
		order[i] = a[i].index;
	free(a);
	free(b);
	free(hist);
	return 0;
}

#define MAX_RUNS 4096

struct run { uint64_t tsc; uint32_t run, pos, end; };

static bool run_before(const struct run *a, const struct run *b)
{
	return a->tsc < b->tsc || (a->tsc == b->tsc && a->run < b->run);
}

static void sift_down(struct run *h, size_t n, size_t i)
{
	for (;;) {
		size_t l = 2 * i + 1, m = i;
		struct run t;

		if (l < n && run_before(&h[l], &h[m]))
			m = l;
		if (l + 1 < n && run_before(&h[l + 1], &h[m]))
			m = l + 1;
		if (m == i)
			return;
		t = h[i];
		h[i] = h[m];
		h[m] = t;
		i = m;
	}
}

/* Split into ascending runs; 0 if there are more than MAX_RUNS. */
static size_t find_runs(const struct fdr_event *e, size_t n, struct run *runs)
{
	size_t nruns = 0, start = 0;

	for (size_t i = 1; i <= n; i++) {
		if (i < n && e[i].tsc >= e[i - 1].tsc)
			continue;
		if (nruns == MAX_RUNS)
			return 0;
		runs[nruns] = (struct run){ e[start].tsc, (uint32_t)nruns, (uint32_t)start,
					    (uint32_t)i };
		nruns++;
		start = i;
	}
	return nruns;
}

static void merge_runs(const struct fdr_event *e, struct run *heap, size_t nruns,
		       uint32_t *order)
{
	size_t out = 0;

	for (size_t i = nruns / 2; i-- > 0;)
		sift_down(heap, nruns, i);
	while (nruns) {
		struct run *top = &heap[0];
		uint64_t next_tsc = top->tsc;

		/* Take the whole stretch that stays ahead of the runner-up. */
		do {
			order[out++] = top->pos++;
		} while (top->pos < top->end && e[top->pos].tsc == next_tsc);
		if (top->pos == top->end) {
			heap[0] = heap[--nruns];
		} else {
			top->tsc = e[top->pos].tsc;
		}
		sift_down(heap, nruns, 0);
	}
}

int tsc_sort(const struct fdr_event *events, size_t n, uint32_t *order)
{
	struct run *runs = malloc(sizeof(*runs) * MAX_RUNS);
	size_t nruns;

	if (!runs)
		return -1;
	nruns = n ? find_runs(events, n, runs) : 0;
	if (nruns || n == 0) {
		merge_runs(events, runs, nruns, order);
		free(runs);
		return 0;
	}
	free(runs);
	return radix_sort(events, n, order);
}
