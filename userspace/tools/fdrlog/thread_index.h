/* SPDX-License-Identifier: MIT */
/*
 * thread_index.h - the (pid, tid) threads of a trace, numbered in order
 * of first record, and the number of any event's thread in O(log n).
 */
#ifndef FDRLOG_THREAD_INDEX_H
#define FDRLOG_THREAD_INDEX_H

#include <stddef.h>
#include <stdint.h>
#include <fdr_reader.h>

struct thread_key { uint32_t pid, tid, index; };

struct thread_index {
	size_t count;
	uint32_t *pid, *tid;		/* [count], in order of first record */
	struct thread_key *keys;	/* sorted by (pid, tid) */
};

int thread_index_build(struct thread_index *ti, const struct fdr_trace *t);
/* The number of ev's thread (ev must be an event of the trace). */
size_t thread_index_find(const struct thread_index *ti, const struct fdr_event *ev);
void thread_index_free(struct thread_index *ti);

#endif
