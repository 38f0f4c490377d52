// SPDX-License-Identifier: MIT
/*
 * cyg_unwind.c - fdr__unwind_fid_at for the -finstrument-functions hooks:
 * the id of a function the hooks have seen.  A frame of a function never
 * entered since recording began has no Enter to close; the cache has no
 * entry for it.
 */
#include "fid_cache.h"
#include <linux/fdr.h>
#include "unwind_frames.h"

__FDR_NO_INSTRUMENT uint32_t fdr__unwind_fid_at(uintptr_t start)
{
	return fdr_fid_cache_get(start);
}
