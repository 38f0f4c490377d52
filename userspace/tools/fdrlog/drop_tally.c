// SPDX-License-Identifier: MIT
/* drop_tally.c - the drop markers of a trace, summed (drop_tally.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "array_grow.h"
#include "drop_tally.h"

#define SHOWN_TIDS 16

static int cmp_u32(const void *x, const void *y)
{
	uint32_t a = *(const uint32_t *)x, b = *(const uint32_t *)y;

	return (a > b) - (a < b);
}

/* Sort the marker threads and keep each once. */
static void unique_tids(struct drop_tally *d)
{
	size_t kept = 0;

	if (!d->places)
		return;		/* tids is NULL: qsort may not be given it */
	qsort(d->tids, d->places, sizeof(*d->tids), cmp_u32);
	for (size_t i = 0; i < d->places; i++)
		if (!kept || d->tids[kept - 1] != d->tids[i])
			d->tids[kept++] = d->tids[i];
	d->ntids = kept;
}

int drop_tally_build(struct drop_tally *d, const struct fdr_trace *t, long tid)
{
	size_t cap = 0;

	memset(d, 0, sizeof(*d));
	for (size_t i = 0; i < t->count; i++) {
		const struct fdr_event *ev = &t->events[i];
		uint64_t records;

		if ((tid >= 0 && ev->tid != (uint32_t)tid) ||
		    !fdr_event_drop_marker(t, ev, &records))
			continue;
		if (array_grow((void **)&d->tids, &cap, d->places + 1, sizeof(*d->tids))) {
			drop_tally_free(d);
			return -1;
		}
		d->tids[d->places++] = ev->tid;
		d->records = records > UINT64_MAX - d->records ? UINT64_MAX : d->records + records;
	}
	unique_tids(d);
	return 0;
}

void drop_tally_free(struct drop_tally *d)
{
	free(d->tids);
	memset(d, 0, sizeof(*d));
}

void drop_tally_threads(const struct drop_tally *d, char buf[DROP_TALLY_THREADS_MAX])
{
	size_t len = 0, shown = d->ntids < SHOWN_TIDS ? d->ntids : SHOWN_TIDS;

	buf[0] = '\0';
	/* 16 x ", 4294967295" and " and N more" fit: nothing is cut */
	for (size_t i = 0; i < shown; i++)
		len += (size_t)snprintf(buf + len, DROP_TALLY_THREADS_MAX - len, "%s%u",
					i ? ", " : "", d->tids[i]);
	if (d->ntids > shown)
		snprintf(buf + len, DROP_TALLY_THREADS_MAX - len, " and %zu more",
			 d->ntids - shown);
}
