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
#include "regs_run.h"

#define TARGET	__attribute__((noinline))

/* The control (-DPATCH_REGS_CONTROL): plain writes r11, which the check
 * must catch untraced. */
#ifdef PATCH_REGS_CONTROL
#define PLAIN_BODY	"xor %%r11, %%r11; nop; nop; nop; nop; nop"
#else
#define PLAIN_BODY	"nop; nop; nop; nop; nop; nop; nop; nop"
#endif

TARGET void plain(void)
{
	__asm__ volatile(PLAIN_BODY ::: "r11");
}

TARGET void callee(void)
{
	__asm__ volatile("nop; nop; nop; nop; nop; nop; nop; nop");
}

TARGET void caller(void)
{
	callee();
	__asm__ volatile("");
}

static const struct regs_target targets[] = {
	{ "plain (enter, exit)", plain, NULL, NULL, 0 },
	{ "caller (nested enter, exit)", caller, NULL, NULL, 0 },
};

int main(int argc, char **argv)
{
	return regs_main(argc, argv, targets, sizeof(targets) / sizeof(targets[0]),
			 REGS_PATCH);
}
