/* SPDX-License-Identifier: MIT */
/*
 * plt_shadow_asm.h - what the -P trampolines' common case
 * (patch_tramp_x86_64.S) needs of a hooked symbol (struct fdr_plt_sym,
 * plt_hook.h) and of the per-thread shadow stack (plt_shadow.c): byte
 * offsets and sizes, as plain numbers a .S file can use.  plt_shadow.c
 * checks every one against the C definitions at compile time.
 */
#ifndef FDR_PLT_SHADOW_ASM_H
#define FDR_PLT_SHADOW_ASM_H

/* struct fdr_plt_sym */
#define PLT_SYM_SIZE		48
#define PLT_SYM_TARGET		0
#define PLT_SYM_FID		8
#define PLT_SYM_CATCHES		24
#define PLT_SYM_KEEPS_ALL	40	/* keeps_ret the byte after it */

/* struct shadow: depth, busy, then the entries */
#define SHADOW_MAX		512
#define SHADOW_DEPTH		0
#define SHADOW_BUSY		4
#define SHADOW_E		8
/* struct shadow_entry: 1 << SHADOW_E_SHIFT bytes */
#define SHADOW_E_SHIFT		5
#define SHADOW_E_SLOT		0
#define SHADOW_E_RET		8
#define SHADOW_E_HOOK		16
#define SHADOW_E_FID		24
#define SHADOW_E_UNHOOKED	28

#endif /* FDR_PLT_SHADOW_ASM_H */
