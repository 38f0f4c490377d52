// SPDX-License-Identifier: MIT
/*
 * cyg_hooks.c - GCC's -finstrument-functions entry points.
 *
 * GCC calls __cyg_profile_func_enter/exit around every instrumented
 * function with its address.  The hot path is one lock-free cache probe
 * and one libfdr call; a miss (first call of a function in this process)
 * takes the slow path in cyg_resolve.c.
 */
#include <stdint.h>

#include "cyg_resolve.h"
#include "fdr.h"
#include "fdr_inline.h"
#include "fid_cache.h"
#include <linux/fdr.h>

__FDR_NO_INSTRUMENT static inline uint32_t fid_of(void *fn)
{
	uint32_t fid = fdr_fid_cache_get((uintptr_t)fn);

	if (__builtin_expect(fid == 0, 0) && !fdr__cyg_tables_full)
		fid = fdr__cyg_resolve((uintptr_t)fn);
	return fid;
}

__FDR_NO_INSTRUMENT void __cyg_profile_func_enter(void *fn, void *call_site)
{
	uint32_t fid = fid_of(fn);

	(void)call_site;
	if (fid)
		fdr_inline_enter((int32_t)fid);
}

__FDR_NO_INSTRUMENT void __cyg_profile_func_exit(void *fn, void *call_site)
{
	uint32_t fid = fid_of(fn);

	(void)call_site;
	if (fid)
		fdr_inline_exit((int32_t)fid);
}
