// SPDX-License-Identifier: MIT
/* key_index.c - keys to dense indices (key_index.h). */
#include <stdlib.h>
#include <sys/random.h>
#include <time.h>
#include <unistd.h>

#include "key_index.h"

#define EMPTY UINT32_MAX

struct key_slot {
	uint64_t key;
	uint32_t index;		/* EMPTY: free */
};

/* splitmix64's finalizer: every key bit reaches the low (mask) bits. */
static uint64_t mix(uint64_t x)
{
	x ^= x >> 30;
	x *= 0xbf58476d1ce4e5b9ull;
	x ^= x >> 27;
	x *= 0x94d049bb133111ebull;
	return x ^ (x >> 31);
}

void key_index_init(struct key_index *ix)
{
	ix->slots = NULL;
	ix->mask = 0;
	ix->n = 0;
	if (getrandom(&ix->seed, sizeof(ix->seed), GRND_NONBLOCK) != sizeof(ix->seed))
		ix->seed = mix((uint64_t)time(NULL) ^ (uint64_t)getpid() << 32);
}

static struct key_slot *find(const struct key_index *ix, uint64_t key)
{
	size_t h = (size_t)mix(key ^ ix->seed) & ix->mask;

	while (ix->slots[h].index != EMPTY && ix->slots[h].key != key)
		h = (h + 1) & ix->mask;
	return &ix->slots[h];
}

/* Double the table, keeping the load at most one half. */
static int grow(struct key_index *ix)
{
	size_t n = ix->mask ? (ix->mask + 1) * 2 : 64;
	struct key_slot *old = ix->slots;
	size_t nold = ix->mask ? ix->mask + 1 : 0;

	if (n > EMPTY)
		return -1;
	ix->slots = malloc(n * sizeof(*ix->slots));
	if (!ix->slots) {
		ix->slots = old;
		return -1;
	}
	for (size_t i = 0; i < n; i++)
		ix->slots[i].index = EMPTY;
	ix->mask = n - 1;
	for (size_t i = 0; i < nold; i++)
		if (old[i].index != EMPTY)
			*find(ix, old[i].key) = old[i];
	free(old);
	return 0;
}

int64_t key_index_get(struct key_index *ix, uint64_t key, bool *added)
{
	struct key_slot *s;

	*added = false;
	if ((ix->n + 1) * 2 > ix->mask + 1 && grow(ix))
		return -1;
	s = find(ix, key);
	if (s->index == EMPTY) {
		s->key = key;
		s->index = (uint32_t)ix->n++;
		*added = true;
	}
	return s->index;
}

void key_index_free(struct key_index *ix)
{
	free(ix->slots);
	ix->slots = NULL;
	ix->mask = 0;
	ix->n = 0;
}
