/* SPDX-License-Identifier: MIT */
/*
 * call_walk.h - match each thread's Enter and Exit records into calls, the
 * way llvm-xray account does (one stack per thread, an exit that matches a
 * frame below the top closes the frames above it; records in TSC order),
 * for every tool that reports per call: `fdrlog account`, `fdr report`.
 * It also holds the rule that adds calls up into a function's total time
 * (call_is_nested), so that every report counts recursion alike.
 */
#ifndef FDRLOG_CALL_WALK_H
#define FDRLOG_CALL_WALK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <fdr_reader.h>

struct call_frame {
	int32_t fid;
	uint64_t tsc;		/* of the Enter */
	uint64_t child_ticks;	/* time spent in completed direct callees */
	size_t outer;		/* 1 + index of the nearest frame below of the
				 * same function (recursion), 0: none */
};

/* A completed call: frames[depth] is the call itself, frames[0..depth) its callers. */
struct call_done {
	uint32_t pid, tid;
	const struct call_frame *frames;
	size_t depth;
	uint64_t ticks;		/* exit TSC - entry TSC */
};

/* Callbacks; any may be NULL.  A non-zero return stops the walk and is returned. */
struct call_walk_ops {
	int (*call)(void *ctx, const struct call_done *c);
	int (*orphan_exit)(void *ctx, const struct fdr_event *ev);	/* entry not in the log */
	int (*unwound)(void *ctx, int32_t fid);		/* closed by a deeper exit */
	int (*open_call)(void *ctx, uint32_t pid, uint32_t tid, int32_t fid);	/* at the end */
	/* Every event (custom ones too), before what it does to the stack:
	 * a writer that follows the log in order (perfetto_writer.c) knows
	 * from it which exit the unwound and call callbacks that follow are
	 * for. */
	int (*event)(void *ctx, const struct fdr_event *ev);
};

/* Walk t; 0, -1 on out of memory, or what a callback returned. */
int call_walk(const struct fdr_trace *t, const struct call_walk_ops *ops, void *ctx);

/* The same a step at a time, for events that come one by one
 * (fdr_trace_stream): start (NULL on out of memory), step each event in
 * order (its return as call_walk's), finish with the last return r (the
 * open calls reported if r is 0): r, or what that returned.  Memory: a
 * stack per thread and a slot per (thread, function), whatever the count
 * of events. */
struct walk;
struct walk *call_walk_start(const struct call_walk_ops *ops, void *ctx);
int call_walk_step(struct walk *w, const struct fdr_event *ev);
int call_walk_finish(struct walk *w, int r);

/*
 * Is c inside another call of its own function, one at c->frames[from] or
 * above (direct or mutual recursion, on c's thread)?  Then c's time is
 * already in that call's, and a total must not add it again: a function's
 * total time runs from its outermost entry to that entry's exit, as
 * uftrace's report counts it.  Its calls and self time still count.  from:
 * the first frame a filter keeps (0: the whole stack).  O(1).
 */
bool call_is_nested(const struct call_done *c, size_t from);

#endif
