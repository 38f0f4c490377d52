// SPDX-License-Identifier: MIT
/*
 * cyg_regs.c - the -finstrument-functions hooks keep what the ABI keeps
 * across a call: rbx, rbp, r12-r15 and MXCSR.  (The compiler itself
 * makes the hooks' calls, so every caller-saved register is its to
 * lose.)  Built with gcc -O2 -finstrument-functions.
 */
#include "regs_run.h"

__attribute__((noinline)) void plain(void)
{
	__asm__ volatile("");
}

__attribute__((noinline)) void callee(void)
{
	__asm__ volatile("");
}

__attribute__((noinline)) void caller(void)
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
			 REGS_CALL);
}
