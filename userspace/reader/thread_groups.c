// SPDX-License-Identifier: MIT
/*
 * thread_groups.c - group a log's blocks by (pid, tid) without LLVM's
 * DenseMap, for logs crafted to collide in its hash (dense_map_order.c
 * gives up on them).  Threads come in order of first appearance, which is
 * what llvm-xray's order would be for a map without collisions only by
 * chance: the output then differs from llvm-xray's in the order of
 * threads (and of their records with equal TSCs), not in the records.
 */
#include <stdlib.h>
#include "internal.h"

struct key_at {
	uint64_t pid;
	int32_t tid;
	size_t first;		/* the key's first block */
	size_t block;
};

static int by_key_then_block(const void *x, const void *y)
{
	const struct key_at *a = x, *b = y;

	if (a->pid != b->pid)
		return a->pid < b->pid ? -1 : 1;
	if (a->tid != b->tid)
		return a->tid < b->tid ? -1 : 1;
	return (a->block > b->block) - (a->block < b->block);
}

static int by_block(const void *x, const void *y)
{
	const struct key_at *a = x, *b = y;

	return (a->block > b->block) - (a->block < b->block);
}

int thread_groups_first_seen(struct block_index *ix)
{
	struct key_at *k = malloc(sizeof(*k) * (ix->nblocks + 1));
	size_t n = ix->nblocks, first = 0;

	if (!k)
		return -1;
	for (size_t i = 0; i < n; i++)
		k[i] = (struct key_at){ ix->blocks[i].pid, ix->blocks[i].tid, i, i };
	qsort(k, n, sizeof(*k), by_key_then_block);
	/* each run of one key: its first block stands for it */
	for (size_t i = 0; i < n; i++) {
		if (i && (k[i].pid != k[i - 1].pid || k[i].tid != k[i - 1].tid))
			first = i;
		k[i].first = k[first].block;
	}
	qsort(k, n, sizeof(*k), by_block);
	/* blocks in file order: a group is new where its first block is */
	ix->ngroups = 0;
	for (size_t i = 0; i < n; i++) {
		if (k[i].first == i)
			ix->blocks[i].group = (uint32_t)ix->ngroups++;
		else
			ix->blocks[i].group = ix->blocks[k[i].first].group;
	}
	for (size_t g = 0; g < ix->ngroups; g++)
		ix->group_order[g] = (uint32_t)g;
	free(k);
	return 0;
}
