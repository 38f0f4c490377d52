/* SPDX-License-Identifier: MIT */
/*
 * call_tree.h - the calls of a log as one tree per thread, what replay
 * and flame draw (and what `fdr replay` calls through fdrlog_views.h).
 *
 * Built from the TSC-sorted events, one stack per (pid, tid).  What a
 * flight recorder leaves is kept, and flagged, not dropped:
 *  - an Exit with an empty stack is a call whose Enter the ring
 *    overwrote: it becomes the parent of everything the thread did before
 *    it, starting at the thread's first record (CALL_ENTRY_LOST; its
 *    duration is a lower bound);
 *  - an Exit that matches a deeper frame closes the frames above it at
 *    its TSC (CALL_EXIT_LOST: unwound, e.g. a longjmp);
 *  - an Exit of a function not on a non-empty stack is a zero-length
 *    call with CALL_ENTRY_LOST;
 *  - a call still open at the end ends at the thread's last record
 *    (CALL_OPEN).
 * Custom and typed events are leaf nodes (CALL_EVENT), but for the
 * strings and return values of fdr record -A/-R (FDR_ARGS_*_MAGIC),
 * which belong to the thread's innermost open call (args, ret).
 *
 * A call left by a tail call (`return f();` compiled as a jump: XRay
 * logs the caller's TailExit, then f's Enter) ends at its TailExit, and
 * f is its sibling, as XRay sees it: the caller's frame is gone when f
 * runs.  It is flagged CALL_TAIL_EXIT so that replay can say so
 * (Documentation/reader.md, "Tail calls").
 */
#ifndef FDRLOG_CALL_TREE_H
#define FDRLOG_CALL_TREE_H

#include <stddef.h>
#include <stdint.h>
#include <fdr_reader.h>

#define CALL_NONE	UINT32_MAX

enum call_flags {
	CALL_ENTRY_LOST	= 1 << 0,
	CALL_EXIT_LOST	= 1 << 1,
	CALL_OPEN	= 1 << 2,
	CALL_EVENT	= 1 << 3,
	CALL_TAIL_EXIT	= 1 << 4,	/* left by a tail call (a TailExit) */
	CALL_WRAPS	= 1 << 5,	/* an Exit on an empty stack: holds what came before */
};

struct call_node {
	const struct fdr_event *enter;	/* NULL if the entry was lost */
	const struct fdr_event *exit;	/* NULL if none closed this call itself */
	const struct fdr_event *event;	/* CALL_EVENT: the custom/typed event */
	const struct fdr_event *args;	/* its FDR_ARGS_STR_MAGIC event, or NULL */
	const struct fdr_event *ret;	/* its FDR_ARGS_RET_MAGIC event, or NULL */
	int32_t fid;
	uint32_t flags;
	uint64_t start, end;		/* TSC */
	uint32_t first_child, next_sibling, last_child;	/* node indices */
};

struct call_thread {
	uint32_t pid, tid;
	uint64_t first_tsc, last_tsc;
	uint32_t first_root, last_root;	/* top-level nodes */
	uint32_t *stack;		/* building only */
	size_t depth, cap;
};

struct call_forest {
	struct call_node *nodes;
	size_t count, cap;
	struct call_thread *threads;	/* in order of first record */
	size_t nthreads;
	size_t max_depth;		/* the deepest nesting of any thread */
};

/* Build from a trace sorted by TSC; -1 on out of memory. */
int call_forest_build(struct call_forest *f, const struct fdr_trace *t);
void call_forest_free(struct call_forest *f);

#endif
