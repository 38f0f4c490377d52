/* SPDX-License-Identifier: MIT */
/*
 * deep_stack.h - run a walk of a call forest on a stack as deep as the
 * forest.  The views (replay, graph, flame, the filters) walk the calls
 * recursively, a few frames per level; a log's calls may nest as deep as
 * it has records (a crafted one 200,000 levels), far past the 8 MiB a
 * thread gets, so a deep forest is walked on a thread of its own whose
 * stack is reserved for its depth and touched only as deep as it goes.
 */
#ifndef FDRLOG_DEEP_STACK_H
#define FDRLOG_DEEP_STACK_H

#include <stddef.h>

/* fn(ctx)'s result, run on a stack for depth levels of nesting (here if
 * this thread's is enough); -1 if no such stack could be had. */
int deep_stack_run(size_t depth, int (*fn)(void *ctx), void *ctx);

#endif
