// SPDX-License-Identifier: MIT
/*
 * xray_fast.c - the first call of the tail-exit and -A trampolines: the
 * record's common case, with no register to save around it.  (Entry and
 * exit sleds write theirs in the trampoline: FAST_FN, whose numbers are
 * checked below.)
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
#include <stddef.h>
#include <stdint.h>

#include "fdr_inline.h"
#include "fdr_thread_asm.h"
#include <linux/fdr.h>
#include "xray_args.h"

#if !defined(__x86_64__) || !defined(__has_attribute) || \
	!__has_attribute(no_caller_saved_registers)
#error "xray_fast.c needs x86-64 and no_caller_saved_registers"
#endif

#define FDR_FAST __FDR_NO_INSTRUMENT __attribute__((no_caller_saved_registers))

/* The trampolines' FAST_FN writes what fdr__fast_fn() writes with these
 * numbers (fdr_thread_asm.h): each must be what C says it is. */
FDR_ASM_IS(FDR_ASM_T_CTL, offsetof(struct fdr_thread, ctl));
FDR_ASM_IS(FDR_ASM_T_REGION, offsetof(struct fdr_thread, region));
FDR_ASM_IS(FDR_ASM_T_DESC, offsetof(struct fdr_thread, desc));
FDR_ASM_IS(FDR_ASM_T_BUF, offsetof(struct fdr_thread, buf));
FDR_ASM_IS(FDR_ASM_T_FAST_SIZE, offsetof(struct fdr_thread, fast_size));
FDR_ASM_IS(FDR_ASM_T_POS, offsetof(struct fdr_thread, pos));
FDR_ASM_IS(FDR_ASM_T_LATEST_TSC, offsetof(struct fdr_thread, latest_tsc));
FDR_ASM_IS(FDR_ASM_T_LAST_ENTRY, offsetof(struct fdr_thread, last_entry_tsc));
FDR_ASM_IS(FDR_ASM_T_THRESHOLD, offsetof(struct fdr_thread, threshold));
FDR_ASM_IS(FDR_ASM_T_CPU_OFFSET, offsetof(struct fdr_thread, cpu_offset));
FDR_ASM_IS(FDR_ASM_T_GENERATION, offsetof(struct fdr_thread, generation));
FDR_ASM_IS(FDR_ASM_T_CPU, offsetof(struct fdr_thread, cpu));
FDR_ASM_IS(FDR_ASM_T_UNDO, offsetof(struct fdr_thread, undo_enters));
/* One 8-byte store of 0 is fdr__undo_note_exit() for an Exit. */
FDR_ASM_IS(FDR_ASM_T_UNDO + 4, offsetof(struct fdr_thread, undo_tails));
FDR_ASM_IS(FDR_ASM_T_BUSY, offsetof(struct fdr_thread, busy));
FDR_ASM_IS(sizeof(((struct fdr_thread *)0)->busy), 1);
FDR_ASM_IS(sizeof(((struct fdr_thread *)0)->undo_enters), 4);
FDR_ASM_IS(sizeof(((struct fdr_thread *)0)->generation), 4);
FDR_ASM_IS(sizeof(((struct fdr_thread *)0)->cpu), 4);
FDR_ASM_IS(FDR_ASM_C_GENERATION, offsetof(struct fdr_control, generation));
FDR_ASM_IS(FDR_ASM_C_STATE, offsetof(struct fdr_control, state));
FDR_ASM_IS(FDR_ASM_D_EXTENTS, offsetof(struct fdr_buffer_desc, extents));
FDR_ASM_IS(FDR_ASM_STATE_INITIALIZED, FDR_STATE_INITIALIZED);
FDR_ASM_IS(FDR_ASM_FAST_NEED, FDR_METADATA_SIZE + FDR_FUNCTION_SIZE);
FDR_ASM_IS(FDR_ASM_FUNCTION_SIZE, FDR_FUNCTION_SIZE);
FDR_ASM_IS(FDR_ASM_FN_EXIT_BITS, FDR_FN_WORD0(FDR_FN_EXIT, 0));
FDR_ASM_IS(FDR_ASM_FN_ID_SHIFT + FDR_FN_ID_BITS, 32);
FDR_ASM_IS(FDR_FN_WORD0(FDR_FN_ENTER, 0), 0);
FDR_ASM_IS(FDR_ASM_DELTA_MAX, INT32_MAX);

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
