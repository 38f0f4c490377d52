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
/* One hooked call's entry or exit, as plt_shadow.c hands it over. */
struct fdr__plt_args_call {
	int32_t fid;
	const char *name;		/* as imported */
	const uint64_t *regs;		/* the trampoline's block (NULL: none,
					 * a patched entry's) */
	const uintptr_t *ret_slot;	/* where the caller's return address is */
};

/*
 * The record of a call's entry: EnterArg and its values when it has a
 * spec, else the Enter; of its exit: the return value if its spec has
 * one, then the Exit.  Both take a struct fdr__plt_args_call and may
 * touch any vector register (strcmp, memcpy, the recorder's general
 * path): plt_shadow.c calls them through fdr__vstate_call_ptr.
 */
void fdr__plt_args_enter(void *call);
void fdr__plt_args_exit(void *call);

/* plt_shadow.c: fdr__plt_enter and fdr__plt_exit (plt_hook.h) with the
 * trampoline's register block, which plt_tramp_x86_64.S passes. */
uintptr_t fdr__plt_enter_regs(uintptr_t index, uintptr_t *ret_slot, const uint64_t *regs);
uintptr_t fdr__plt_exit_regs(uintptr_t rsp, const uint64_t *regs);

#endif /* FDR_PLT_ARGS_H */
