// SPDX-License-Identifier: MIT
/* thread_index.c - number the threads of a trace (thread_index.h). */
#include <stdlib.h>
#include <string.h>
#include "thread_index.h"

static int key_cmp(const void *a, const void *b)
{
	const struct thread_key *x = a, *y = b;

	if (x->pid != y->pid)
		return x->pid < y->pid ? -1 : 1;
	return x->tid != y->tid ? (x->tid < y->tid ? -1 : 1) : 0;
}

static int by_first(const void *a, const void *b)
{
	const struct thread_key *x = a, *y = b;

	return x->index < y->index ? -1 : x->index > y->index;
}

/* One key per thread, its index the position of its first record. */
static size_t unique_threads(struct thread_key *k, const struct fdr_trace *t)
{
	size_t n = 0;

	for (size_t i = 0; i < t->count; i++) {
		const struct fdr_event *ev = fdr_trace_at(t, i);

		k[i] = (struct thread_key){ ev->pid, ev->tid, (uint32_t)i };
	}
	qsort(k, t->count, sizeof(*k), key_cmp);
	for (size_t i = 0; i < t->count; i++) {
		if (n && !key_cmp(&k[n - 1], &k[i])) {
			if (k[i].index < k[n - 1].index)
				k[n - 1].index = k[i].index;
			continue;
		}
		k[n++] = k[i];
	}
	return n;
}

int thread_index_build(struct thread_index *ti, const struct fdr_trace *t)
{
	size_t n;

	memset(ti, 0, sizeof(*ti));
	ti->keys = malloc((t->count + 1) * sizeof(*ti->keys));
	if (!ti->keys)
		return -1;
	n = unique_threads(ti->keys, t);
	ti->pid = malloc((n + 1) * sizeof(*ti->pid));
	ti->tid = malloc((n + 1) * sizeof(*ti->tid));
	if (!ti->pid || !ti->tid) {
		thread_index_free(ti);
		return -1;
	}
	qsort(ti->keys, n, sizeof(*ti->keys), by_first);
	for (size_t i = 0; i < n; i++) {
		ti->pid[i] = ti->keys[i].pid;
		ti->tid[i] = ti->keys[i].tid;
		ti->keys[i].index = (uint32_t)i;
	}
	qsort(ti->keys, n, sizeof(*ti->keys), key_cmp);
	ti->count = n;
	return 0;
}

size_t thread_index_find(const struct thread_index *ti, const struct fdr_event *ev)
{
	struct thread_key want = { ev->pid, ev->tid, 0 };
	const struct thread_key *k = bsearch(&want, ti->keys, ti->count, sizeof(want), key_cmp);

	return k ? k->index : 0;
}

void thread_index_free(struct thread_index *ti)
{
	free(ti->keys);
	free(ti->pid);
	free(ti->tid);
	memset(ti, 0, sizeof(*ti));
}
