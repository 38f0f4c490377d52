/* SPDX-License-Identifier: MIT */
/*
 * pattern.h - the calls a stress writer thread makes, and that the log
 * checker expects to find again, record for record.
 *
 * Thread uid U (unique in a run, from the tally) makes pairs k = 0, 1, ...:
 *
 *   EnterArg(outer(U,k)) + CallArgument(U << 32 | k)
 *     odd k only: Enter(inner(U,k)) Exit(inner(U,k))
 *   Exit(outer(U,k))
 *
 * The argument names the pair, so a log is checked without trusting tids
 * (the kernel recycles them) and every function id is predictable.
 */
#ifndef REL_PATTERN_H
#define REL_PATTERN_H

#include <stdint.h>

static inline uint32_t pattern_outer(uint32_t uid, uint64_t k)
{
	return 1 + (uint32_t)((uid * 7919ull + k) % 0xFFFFFEu);
}

/* Bit 24 set: never equal to an outer id; both fit in XRay's 28 bits. */
static inline uint32_t pattern_inner(uint32_t uid, uint64_t k)
{
	return pattern_outer(uid, k) | 0x1000000u;
}

static inline uint64_t pattern_arg(uint32_t uid, uint64_t k)
{
	return (uint64_t)uid << 32 | (uint32_t)k;
}

static inline int pattern_has_inner(uint64_t k)
{
	return (int)(k & 1);
}

/* Records per pair: EnterArg, CallArgument, [Enter, Exit], Exit. */
static inline unsigned pattern_records(uint64_t k)
{
	return pattern_has_inner(k) ? 5 : 3;
}

#endif
