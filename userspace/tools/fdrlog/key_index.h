/* SPDX-License-Identifier: MIT */
/*
 * key_index.h - 64-bit keys to dense indices 0, 1, 2, ... in the order
 * they were first seen: the lookup that keeps `fdrlog account` linear in
 * records and threads.
 *
 * Open addressing with a hash keyed by a random seed taken per index, so
 * a crafted log cannot pick keys that all land in one probe chain (a
 * fixed hash, even a good one, can be inverted).
 */
#ifndef FDRLOG_KEY_INDEX_H
#define FDRLOG_KEY_INDEX_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct key_slot;

struct key_index {
	struct key_slot *slots;
	size_t mask;		/* slots - 1, a power of two minus one */
	size_t n;		/* keys held */
	uint64_t seed;
};

void key_index_init(struct key_index *ix);
/*
 * The index of key; a key not seen before gets the next index (n before
 * the call) and *added is set.  -1: out of memory.
 */
int64_t key_index_get(struct key_index *ix, uint64_t key, bool *added);
void key_index_free(struct key_index *ix);

#endif /* FDRLOG_KEY_INDEX_H */
