/* SPDX-License-Identifier: MIT */
/*
 * regs_calls.h - the call-shaped targets of the register tests whose
 * hooks sit at function boundaries (cyg_regs.c, patch_regs.c): plain,
 * and caller calling callee, each body the asm string the includer
 * gives (REGS_PLAIN_BODY, REGS_CALLEE_BODY: it must write no register
 * the check compares, or must be the control that does), and main,
 * which checks REGS_CALLS_SET.
 */
#ifndef ADAPTERS_TESTS_REGS_CALLS_H
#define ADAPTERS_TESTS_REGS_CALLS_H

#include "regs_run.h"

__attribute__((noinline)) void plain(void)
{
	__asm__ volatile(REGS_PLAIN_BODY ::: "r11");
}

__attribute__((noinline)) void callee(void)
{
	__asm__ volatile(REGS_CALLEE_BODY);
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
			 REGS_CALLS_SET);
}

#endif /* ADAPTERS_TESTS_REGS_CALLS_H */
