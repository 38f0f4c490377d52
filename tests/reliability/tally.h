/* SPDX-License-Identifier: MIT */
/*
 * tally.h - what the writers say they published, in memory shared by the
 * stress driver and its writer processes (MAP_SHARED | MAP_ANONYMOUS made
 * before fork, so it survives a SIGKILLed writer).
 *
 * A writer thread appends one entry per unbroken range of pairs it
 * *confirmed*: the region was INITIALIZED in generation G (and, on the
 * device, the thread held a buffer of G) both before and after the range,
 * so every record of the range was published before G was finalized and
 * must be in G's log.  Entries are written, then made visible with a
 * release store of `valid`; last_k only grows, also with release stores.
 */
#ifndef REL_TALLY_H
#define REL_TALLY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct tally_entry {
	uint32_t valid;		/* 1 once the fields below are written */
	uint32_t uid;
	uint32_t generation;
	int32_t pid, tid;
	uint32_t reserved;
	uint64_t first_k;
	uint64_t last_k;	/* release-stored as the range grows */
};

struct tally {
	uint64_t capacity;	/* entries[] */
	uint64_t nr_entries;	/* atomic; may exceed capacity (full) */
	uint32_t next_uid;	/* atomic */
	uint32_t stop;		/* set by the driver: writers finish */
	uint64_t threads_started;
	uint64_t pairs_written;
	uint64_t pairs_confirmed;
	uint64_t attach_retries; /* writers that found no region to map */
	struct tally_entry entries[];
};

struct tally *tally_create(uint64_t capacity);
uint32_t tally_new_uid(struct tally *t);
/* A new entry, or NULL when the tally is full (counted, not fatal). */
struct tally_entry *tally_append(struct tally *t, uint32_t uid, uint32_t gen,
				 uint64_t first_k, uint64_t last_k);
void tally_extend(struct tally_entry *e, uint64_t last_k);
uint64_t tally_count(const struct tally *t);
/* Entry i if it is complete, else NULL. */
const struct tally_entry *tally_get(const struct tally *t, uint64_t i);

#endif
