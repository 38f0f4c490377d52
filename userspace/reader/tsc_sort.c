// SPDX-License-Identifier: MIT
/*
 * tsc_sort.c - stable sort of events by TSC (llvm-xray uses
 * std::stable_sort): an LSD radix sort on (tsc, index) pairs, one byte per
 * pass, skipping the bytes in which all keys agree (usually the high ones).
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

int tsc_sort(const struct fdr_event *events, size_t n, uint32_t *order)
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
