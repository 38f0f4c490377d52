// SPDX-License-Identifier: MIT
/*
 * fid_cache.c - insertion into the address -> id table (fid_cache.h).
 */
#include <errno.h>

#include "fid_cache.h"

struct fdr_fid_slot fdr__cyg_fid_cache[FDR_FID_CACHE_SIZE];
static uint32_t used;

__FDR_NO_INSTRUMENT int fdr__fid_cache_put(uintptr_t addr, uint32_t fid)
{
	uint32_t i = fdr_fid_cache_hash(addr);

	if (used >= FDR_FID_CACHE_MAX)
		return -ENOSPC;
	while (fdr__cyg_fid_cache[i].addr != 0) {
		if (fdr__cyg_fid_cache[i].addr == addr)
			return 0;
		i = (i + 1) & (FDR_FID_CACHE_SIZE - 1);
	}
	fdr__cyg_fid_cache[i].fid = fid;
	__atomic_store_n(&fdr__cyg_fid_cache[i].addr, addr, __ATOMIC_RELEASE);
	used++;
	return 0;
}
