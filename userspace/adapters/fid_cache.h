/* SPDX-License-Identifier: MIT */
/*
 * fid_cache.h - the hot-path map from a function address to its id.
 *
 * An open-addressing table in static memory: readers never lock and never
 * allocate.  Writers (the slow path, serialized by its lock) store the id
 * first and then publish the address with a release store, so a reader
 * that sees the address also sees the id.  Entries are never removed.
 */
#ifndef FDR_FID_CACHE_H
#define FDR_FID_CACHE_H

#include <stdint.h>

#include <linux/fdr.h>

#define FDR_FID_CACHE_BITS	17
#define FDR_FID_CACHE_SIZE	(1u << FDR_FID_CACHE_BITS)
/* Keep probes short: stop inserting at 3/4 full. */
#define FDR_FID_CACHE_MAX	(FDR_FID_CACHE_SIZE / 4 * 3)

struct fdr_fid_slot {
	uintptr_t addr;		/* 0: empty; written once, release */
	uint32_t fid;
	uint32_t pad;
};

extern struct fdr_fid_slot fdr__cyg_fid_cache[FDR_FID_CACHE_SIZE];

__FDR_NO_INSTRUMENT static inline uint32_t fdr_fid_cache_hash(uintptr_t addr)
{
	return (uint32_t)(((uint64_t)addr * 0x9E3779B97F4A7C15ull) >>
			  (64 - FDR_FID_CACHE_BITS));
}

/* The id of the function at addr, or 0 if not cached yet. */
__FDR_NO_INSTRUMENT static inline uint32_t fdr_fid_cache_get(uintptr_t addr)
{
	uint32_t i = fdr_fid_cache_hash(addr);

	for (;;) {
		const struct fdr_fid_slot *s = &fdr__cyg_fid_cache[i];
		uintptr_t a = __atomic_load_n(&s->addr, __ATOMIC_ACQUIRE);

		if (a == addr)
			return s->fid;
		if (a == 0)
			return 0;
		i = (i + 1) & (FDR_FID_CACHE_SIZE - 1);
	}
}

/* Insert under the slow-path lock.  Returns 0, or -ENOSPC when full. */
int fdr__fid_cache_put(uintptr_t addr, uint32_t fid);

#endif /* FDR_FID_CACHE_H */
