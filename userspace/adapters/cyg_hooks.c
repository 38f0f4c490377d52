// SPDX-License-Identifier: MIT
/*
 * cyg_hooks.c - GCC's -finstrument-functions entry points.
 *
 * GCC calls __cyg_profile_func_enter/exit around every instrumented
 * function with its address.  The hot path is one lock-free cache probe
 * and one libfdr call; a miss (first call of a function in this process)
 * takes the slow path in cyg_resolve.c.  While nothing records (nothing
 * to attach to at the start, no `fdr record -p` attached since), one
 * predictable branch skips the libfdr call; ids are still resolved, so
 * the sym-map is complete whenever a recorder attaches.
 */
#include <stdbool.h>
#include <stdint.h>

#include "cyg_resolve.h"
#include "fdr.h"
#include "fdr_inline.h"
#include "fid_cache.h"
#include "plt_hook.h"
#include <linux/fdr.h>

__FDR_NO_INSTRUMENT static inline uint32_t fid_of(void *fn)
{
	uint32_t fid = fdr_fid_cache_get((uintptr_t)fn);

	if (__builtin_expect(fid == 0, 0) && !fdr__cyg_tables_full)
		fid = fdr__cyg_resolve((uintptr_t)fn);
	return fid;
}

/* `fdr record -p` calls it from outside (attach_entry.c): keep it. */
long fdr_attach_entry(const char *cmd);
__attribute__((used)) static long (*const keep_attach_entry)(const char *) =
	fdr_attach_entry;

__FDR_NO_INSTRUMENT static inline bool recording(uint32_t fid)
{
	return fid && __builtin_expect(!__atomic_load_n(&fdr__cyg_idle, __ATOMIC_RELAXED), 1);
}

__FDR_NO_INSTRUMENT void __cyg_profile_func_enter(void *fn, void *call_site)
{
	uint32_t fid = fid_of(fn);

	(void)call_site;
	if (recording(fid))
		fdr_inline_enter((int32_t)fid);
}

__FDR_NO_INSTRUMENT void __cyg_profile_func_exit(void *fn, void *call_site)
{
	uint32_t fid = fid_of(fn);

	(void)call_site;
	/* a landing pad's exit (GCC calls it on unwind): the library calls
	 * this frame made and the throw left end first (plt_shadow.c) */
	if (__builtin_expect(fdr__plt_unwinding, 0))
		fdr__plt_close_below((uintptr_t)__builtin_dwarf_cfa());
	if (recording(fid))
		fdr_inline_exit((int32_t)fid);
}
