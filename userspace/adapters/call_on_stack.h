/* SPDX-License-Identifier: MIT */
/*
 * call_on_stack.h - run a hook's slow path on a stack of its own.
 *
 * The hooks run on whatever stack the program runs on, which may be a
 * coroutine's 4 KiB.  Their fast path takes a few hundred bytes; their
 * slow path (the first call of each function: symbol lookup, realpath,
 * the sym-map line, attaching with its messages) takes tens of KiB, so
 * it runs on the one stack below, under the lock that already
 * serializes it (Documentation/integrations.md, "Stack").
 */
#ifndef FDR_CALL_ON_STACK_H
#define FDR_CALL_ON_STACK_H

#include <stddef.h>

/* The slow path's stack.  256 KiB of .bss: only the pages it touches
 * cost memory. */
#define FDR_SLOW_STACK_SIZE	(256 * 1024)

/* Call fn(arg) with the stack pointer at top (16-aligned). */
void fdr__call_on_stack(void *top, void (*fn)(void *), void *arg);

#endif /* FDR_CALL_ON_STACK_H */
