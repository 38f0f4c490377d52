// SPDX-License-Identifier: MIT
/*
 * patch_regs.c - every register but rsp live across a patched function:
 * its entry and exit hooks (fdr record -P, patch_tramp_x86_64.S) keep
 * them all, on the common path and the general one.
 *
 * Built with a plain clang-19 -O2: each target's body writes no
 * register (eight nops, room for the patch's jump, and a ret; caller's
 * push and pop of rax to align its call), which the untraced run proves,
 * so whatever changes was changed by a hook.
 */
#define NOPS			"nop; nop; nop; nop; nop; nop; nop; nop"

/* The control (-DPATCH_REGS_CONTROL): plain writes r11, which the check
 * must catch untraced. */
#ifdef PATCH_REGS_CONTROL
#define REGS_PLAIN_BODY		"xor %%r11, %%r11; nop; nop; nop; nop; nop"
#else
#define REGS_PLAIN_BODY		NOPS
#endif
#define REGS_CALLEE_BODY	NOPS
#define REGS_CALLS_SET		REGS_PATCH
#include "regs_calls.h"
