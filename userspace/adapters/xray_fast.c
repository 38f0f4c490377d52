// SPDX-License-Identifier: MIT
/*
 * xray_fast.c - the first call of the mode's trampolines: the record's
 * common case, with no register to save around it.
 *
 * Each function is the inline fast path of <fdr_inline.h> for one sled
 * kind, declared no_caller_saved_registers and compiled with
 * -mgeneral-regs-only (Makefile): it saves the few general registers it
 * uses itself and never touches an XMM register, so the trampoline needs
 * to keep only the registers of its call (the argument and the result).
 * It calls nothing.  false: nothing was written; the trampoline then
 * saves everything the ABI makes live and calls the mode's handler, the
 * general path (xray_tramp_x86_64.S).
 */
#include <stdbool.h>
#include <stdint.h>

#include "fdr_inline.h"
#include <linux/fdr.h>
#include "xray_args.h"

#if !defined(__x86_64__) || !defined(__has_attribute) || \
	!__has_attribute(no_caller_saved_registers)
#error "xray_fast.c needs x86-64 and no_caller_saved_registers"
#endif

#define FDR_FAST __FDR_NO_INSTRUMENT __attribute__((no_caller_saved_registers))

FDR_FAST bool fdr__xray_try_enter(int32_t fid)
{
	return fdr__fast_fn(FDR_FN_ENTER, fid);
}

FDR_FAST bool fdr__xray_try_exit(int32_t fid)
{
	return fdr__fast_fn(FDR_FN_EXIT, fid);
}

FDR_FAST bool fdr__xray_try_tail(int32_t fid)
{
	return fdr__fast_fn(FDR_FN_TAIL_EXIT, fid);
}

/* An -A entry whose values are all in registers (no string to copy). */
FDR_FAST bool fdr__xray_try_args(int32_t fid, const uint64_t *regs)
{
	const struct fdr__xray_fn_spec *f = fdr__xray_args_find(fid);
	uint64_t v[FDR_ENTER_ARGS_MAX];

	if (!f || f->has_str)
		return false;
	for (unsigned i = 0; i < f->n; i++)
		v[i] = regs[f->arg[i].slot];
	return fdr__fast_enter_args(fid, v, f->n);
}
