// SPDX-License-Identifier: MIT
/*
 * cyg_regs.c - the -finstrument-functions hooks keep what the ABI keeps
 * across a call: rbx, rbp, r12-r15 and MXCSR.  (The compiler itself
 * makes the hooks' calls, so every caller-saved register is its to
 * lose.)  Built with gcc -O2 -finstrument-functions.
 */
#define REGS_PLAIN_BODY		""
#define REGS_CALLEE_BODY	""
#define REGS_CALLS_SET		REGS_CALL
#include "regs_calls.h"
