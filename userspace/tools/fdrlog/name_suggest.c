// SPDX-License-Identifier: MIT
/* name_suggest.c - close matches of a mistyped name (name_suggest.h). */
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include "name_suggest.h"

#define NAME_LEN 256
#define MAX_SUGGEST 3

/* Levenshtein distance; SIZE_MAX for names too long to be a typo's. */
static size_t distance(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b), row[NAME_LEN + 1];

	if (la > NAME_LEN || lb > NAME_LEN)
		return SIZE_MAX;
	for (size_t j = 0; j <= lb; j++)
		row[j] = j;
	for (size_t i = 1; i <= la; i++) {
		size_t diag = row[0];

		row[0] = i;
		for (size_t j = 1; j <= lb; j++) {
			size_t up = row[j], best = diag + (a[i - 1] != b[j - 1]);

			if (up + 1 < best)
				best = up + 1;
			if (row[j - 1] + 1 < best)
				best = row[j - 1] + 1;
			row[j] = best;
			diag = up;
		}
	}
	return row[lb];
}

void name_suggest(const char *want, name_at_fn name_at, void *ctx, size_t n,
		  char *buf, size_t len)
{
	size_t best[MAX_SUGGEST], dist[MAX_SUGGEST], nbest = 0;
	size_t limit = strlen(want) / 3 + 2, used = 0;
	char tmp[NAME_LEN];

	for (size_t i = 0; i < n; i++) {
		size_t d = distance(want, name_at(ctx, i, tmp, sizeof(tmp))), k;

		if (d > limit)
			continue;
		/* insert in order of distance, the first found first among equals */
		for (k = nbest; k > 0 && dist[k - 1] > d; k--)
			if (k < MAX_SUGGEST) {
				best[k] = best[k - 1];
				dist[k] = dist[k - 1];
			}
		if (k < MAX_SUGGEST) {
			best[k] = i;
			dist[k] = d;
			nbest += nbest < MAX_SUGGEST;
		}
	}
	buf[0] = 0;
	for (size_t k = 0; k < nbest && used < len; k++)
		used += (size_t)snprintf(buf + used, len - used, "%s%s",
					 k ? ", " : "; close matches: ",
					 name_at(ctx, best[k], tmp, sizeof(tmp)));
}
