/* SPDX-License-Identifier: MIT */
/*
 * plt_args.h - arguments and return values of library calls (plt_args.c):
 * what the library-call hooks (plt_shadow.c) call.
 */
#ifndef FDR_PLT_ARGS_H
#define FDR_PLT_ARGS_H

#include <stdbool.h>
#include <stdint.h>

/* Any -A/-R spec ($FDR_PLT_ARGS)?  Set once, at start-up. */
extern bool fdr__plt_args_on;

/* Read $FDR_PLT_ARGS (before the first hook runs). */
void fdr__plt_args_load(void);
/* The entry of fid (imported as name): EnterArg and its values when it
 * has a spec (true), else nothing (false: the caller writes the Enter).
 * regs: the entry trampoline's block (NULL: none, a patched entry's);
 * ret_slot: where the caller's return address is. */
bool fdr__plt_args_enter(int32_t fid, const char *name, const uint64_t *regs,
			 const uintptr_t *ret_slot);
/* Before fid's Exit: its return value, if its spec has one; regs: the
 * return trampoline's rax, rdx, xmm0 (NULL: none). */
void fdr__plt_args_exit(int32_t fid, const uint64_t *regs);

/* plt_shadow.c: fdr__plt_enter and fdr__plt_exit (plt_hook.h) with the
 * trampoline's register block, which plt_tramp_x86_64.S passes. */
uintptr_t fdr__plt_enter_regs(uintptr_t index, uintptr_t *ret_slot, const uint64_t *regs);
uintptr_t fdr__plt_exit_regs(uintptr_t rsp, const uint64_t *regs);

#endif /* FDR_PLT_ARGS_H */
