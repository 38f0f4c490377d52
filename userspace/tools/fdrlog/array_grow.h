/* SPDX-License-Identifier: MIT */
/* array_grow.h - the growable arrays of account and the call trees. */
#ifndef FDRLOG_ARRAY_GROW_H
#define FDRLOG_ARRAY_GROW_H

#include <stddef.h>

/* Make *p (of *cap elements of elem bytes) hold at least need elements,
 * doubling from 16; 0, or -1 (out of memory) with *p unchanged. */
int array_grow(void **p, size_t *cap, size_t need, size_t elem);

#endif
