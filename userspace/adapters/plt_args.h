/* SPDX-License-Identifier: MIT */
/*
 * plt_args.h - arguments and return values of library calls (plt_args.c):
 * what the library-call hooks (plt_shadow.c) call.
 */
#ifndef FDR_PLT_ARGS_H
#define FDR_PLT_ARGS_H

#include <stdbool.h>
#include <stdint.h>

#include "args_regs.h"

/* Any -A/-R spec ($FDR_PLT_ARGS)?  Set once, at start-up. */
extern bool fdr__plt_args_on;

/* Read $FDR_PLT_ARGS (before the first hook runs). */
void fdr__plt_args_load(void);

/*
 * What the general path found for each id, so that later calls take the
 * fast path: an open-addressed table, append-only and lock-free (fid 0
 * is free; a slot is claimed by compare-and-swap, its spec published by
 * ready with release order).  Ids without a spec are kept until the
 * table is half full (plt_args.c): later ones take the general path.
 */
#define FDR_PLT_ARGS_HITS	1024
struct fdr__plt_args_hit {
	int32_t fid;
	int ready;
	const struct fdr__xray_fn_spec *spec;	/* NULL: no -A/-R for it */
};
extern struct fdr__plt_args_hit fdr__plt_args_hits[FDR_PLT_ARGS_HITS];

static inline uint32_t fdr__plt_args_slot(int32_t fid)
{
	return ((uint32_t)fid * 2654435761u) & (FDR_PLT_ARGS_HITS - 1);
}

/*
 * fid's spec as the general path found it: true and *spec (NULL when it
 * has none), or false when fid was not looked up yet.  General
 * registers only: plt_shadow.c calls it before choosing a path.
 */
static inline bool fdr__plt_args_known(int32_t fid, const struct fdr__xray_fn_spec **spec)
{
	uint32_t h = fdr__plt_args_slot(fid);

	for (uint32_t n = 0; n < FDR_PLT_ARGS_HITS; n++, h = (h + 1) & (FDR_PLT_ARGS_HITS - 1)) {
		struct fdr__plt_args_hit *e = &fdr__plt_args_hits[h];
		int32_t f = __atomic_load_n(&e->fid, __ATOMIC_ACQUIRE);

		if (f == 0)
			return false;
		if (f == fid) {
			if (!__atomic_load_n(&e->ready, __ATOMIC_ACQUIRE))
				return false;
			*spec = e->spec;
			return true;
		}
	}
	return false;
}

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

/* The value of a spec's slot (args_regs.h numbering) in the entry
 * trampoline's block, or on the stack above the return address. */
static inline uint64_t fdr__plt_args_value(uint8_t slot, const uint64_t *regs, const uintptr_t *ret_slot)
{
	if (slot <= FDR_XREG_RAX)
		return regs[slot];
	if (slot < FDR_XREG_NR)	/* xmm: 16 bytes each, after rax and r10 */
		return regs[8 + 2 * (slot - FDR_XREG_XMM0)];
	return ret_slot[slot - FDR_XREG_STACK];
}

/* plt_shadow.c: fdr__plt_enter and fdr__plt_exit (plt_hook.h) with the
 * trampoline's register block, which plt_tramp_x86_64.S passes. */
uintptr_t fdr__plt_enter_regs(uintptr_t index, uintptr_t *ret_slot, const uint64_t *regs);
uintptr_t fdr__plt_exit_regs(uintptr_t rsp, const uint64_t *regs);

#endif /* FDR_PLT_ARGS_H */
