// SPDX-License-Identifier: MIT
/*
 * dense_map_order.c - the order in which LLVM 19 visits threads.
 *
 * llvm-xray keeps the blocks of each (pid, tid) in an
 * llvm::DenseMap<std::pair<uint64_t, int32_t>, ...> and expands the threads
 * in that map's iteration (bucket) order; after the stable sort by TSC,
 * records of different threads with equal TSCs keep that order.  To print
 * the same YAML we rebuild the map's bucket layout: the same hash, the
 * same quadratic probing, the same growth policy.
 *
 * That hash is fixed and public, so a log can pick (pid, tid) keys that
 * share one bucket and make every insertion probe past all the others
 * (30,000 such threads took 3.7 s, 100x a normal log; llvm-xray pays the
 * same).  The probes are counted: past PROBE_BUDGET the map gives up
 * (dense_map_gave_up) and the caller orders threads by first appearance
 * instead, in O(n log n).  No log that was not crafted comes near it.
 */
#include <stdlib.h>
#include "internal.h"

#define EMPTY_PID	UINT64_MAX
#define EMPTY_TID	INT32_MAX

struct bucket {
	struct group_key key;
	uint32_t group;
};

struct dense_map {
	struct bucket *buckets;
	uint32_t nbuckets;	/* 0 or a power of two >= 64 */
	uint32_t nentries;
	uint64_t lookups, probes;
	bool gave_up;
};

/* A few probes per lookup at 3/4 load; 64 on average is an attack. */
#define PROBE_BUDGET(m)	(64 * (m)->lookups + (1u << 20))

/* densemap::detail::mix (LLVM 19): splitmix64's multiplier, one xor-shift. */
static uint64_t mix(uint64_t x)
{
	x *= 0xbf58476d1ce4e5b9ull;
	x ^= x >> 31;
	return x;
}

/* detail::combineHashValue, DenseMapInfo<unsigned long>, DenseMapInfo<int>. */
static uint32_t combine_hash(uint32_t a, uint32_t b) { return (uint32_t)mix((uint64_t)a << 32 | b); }
static uint32_t hash_u64(uint64_t v) { return (uint32_t)mix(v); }
static uint32_t hash_i32(int32_t v) { return (uint32_t)v * 37u; }

static uint32_t hash_key(struct group_key k)
{
	return combine_hash(hash_u64(k.pid), hash_i32(k.tid));
}

static bool key_eq(struct group_key a, struct group_key b)
{
	return a.pid == b.pid && a.tid == b.tid;
}

static bool is_empty(const struct bucket *b)
{
	return b->key.pid == EMPTY_PID && b->key.tid == EMPTY_TID;
}

/* LookupBucketFor: the bucket holding key, or the empty one to use. */
static struct bucket *lookup(struct dense_map *m, struct group_key key)
{
	uint32_t mask = m->nbuckets - 1, no = hash_key(key) & mask, probe = 1;

	m->lookups++;
	for (;; m->probes++) {
		struct bucket *b = &m->buckets[no];

		if (key_eq(b->key, key) || is_empty(b))
			return b;
		no = (no + probe++) & mask;
	}
}

static int grow(struct dense_map *m, uint32_t at_least)
{
	struct bucket *old = m->buckets;
	uint32_t nold = m->nbuckets, n = 64;

	while (n < at_least)
		n <<= 1;
	m->buckets = malloc(sizeof(*m->buckets) * n);
	if (!m->buckets) {
		m->buckets = old;
		return -1;
	}
	m->nbuckets = n;
	for (uint32_t i = 0; i < n; i++)
		m->buckets[i].key = (struct group_key){ EMPTY_PID, EMPTY_TID };
	/* moveFromOldBuckets: re-insert in old bucket order. */
	for (uint32_t i = 0; i < nold; i++)
		if (!is_empty(&old[i]))
			*lookup(m, old[i].key) = old[i];
	free(old);
	return 0;
}

struct dense_map *dense_map_new(void)
{
	return calloc(1, sizeof(struct dense_map));
}

void dense_map_free(struct dense_map *m)
{
	if (m)
		free(m->buckets);
	free(m);
}

int64_t dense_map_insert(struct dense_map *m, struct group_key key)
{
	struct bucket *b;

	if (m->probes > PROBE_BUDGET(m))
		m->gave_up = true;
	if (m->gave_up)
		return 0;	/* the caller regroups without the map */
	b = m->nbuckets ? lookup(m, key) : NULL;

	if (b && !is_empty(b))
		return b->group;
	/*
	 * InsertIntoBucketImpl: grow at 3/4 load.  (Its other rehash, for
	 * tombstones, never happens: nothing is erased.)
	 */
	if ((m->nentries + 1) * 4 >= m->nbuckets * 3) {
		if (grow(m, m->nbuckets * 2))
			return -1;
		b = lookup(m, key);
	}
	b->key = key;
	b->group = m->nentries++;
	return b->group;
}

bool dense_map_gave_up(const struct dense_map *m)
{
	return m->gave_up || m->probes > PROBE_BUDGET(m);
}

size_t dense_map_iteration_order(const struct dense_map *m, uint32_t *order)
{
	size_t n = 0;

	for (uint32_t i = 0; i < m->nbuckets; i++)
		if (!is_empty(&m->buckets[i]))
			order[n++] = m->buckets[i].group;
	return n;
}
