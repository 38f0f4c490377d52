// SPDX-License-Identifier: MIT
/* tally.c - see tally.h. */
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>
#include "tally.h"

struct tally *tally_create(uint64_t capacity)
{
	size_t len = sizeof(struct tally) + capacity * sizeof(struct tally_entry);
	/* NORESERVE: only the entries a run appends are ever touched. */
	struct tally *t = mmap(NULL, len, PROT_READ | PROT_WRITE,
			       MAP_SHARED | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);

	if (t == MAP_FAILED)
		return NULL;
	t->capacity = capacity;
	t->next_uid = 1;
	return t;
}

uint32_t tally_new_uid(struct tally *t)
{
	__atomic_fetch_add(&t->threads_started, 1, __ATOMIC_RELAXED);
	return __atomic_fetch_add(&t->next_uid, 1, __ATOMIC_RELAXED);
}

struct tally_entry *tally_append(struct tally *t, uint32_t uid, uint32_t gen,
				 uint64_t first_k, uint64_t last_k)
{
	uint64_t i = __atomic_fetch_add(&t->nr_entries, 1, __ATOMIC_RELAXED);
	struct tally_entry *e;

	if (i >= t->capacity)
		return NULL;
	e = &t->entries[i];
	e->uid = uid;
	e->generation = gen;
	e->pid = getpid();
	e->tid = (int32_t)syscall(SYS_gettid);
	e->first_k = first_k;
	__atomic_store_n(&e->last_k, last_k, __ATOMIC_RELEASE);
	__atomic_store_n(&e->valid, 1, __ATOMIC_RELEASE);
	return e;
}

void tally_extend(struct tally_entry *e, uint64_t last_k)
{
	__atomic_store_n(&e->last_k, last_k, __ATOMIC_RELEASE);
}

uint64_t tally_count(const struct tally *t)
{
	uint64_t n = __atomic_load_n(&t->nr_entries, __ATOMIC_ACQUIRE);

	return n < t->capacity ? n : t->capacity;
}

const struct tally_entry *tally_get(const struct tally *t, uint64_t i)
{
	const struct tally_entry *e = &t->entries[i];

	return __atomic_load_n(&e->valid, __ATOMIC_ACQUIRE) ? e : NULL;
}
