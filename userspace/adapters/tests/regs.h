/* SPDX-License-Identifier: MIT */
/*
 * regs.h - the register harness of the sled tests: load every register a
 * compiled caller may keep live with sentinels, call a function, and
 * read every register back (regs_harness.S).
 */
#ifndef ADAPTERS_TESTS_REGS_H
#define ADAPTERS_TESTS_REGS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum regs_gpr {
	R_RAX, R_RBX, R_RCX, R_RDX, R_RSI, R_RDI, R_RBP, R_RSP,
	R_R8, R_R9, R_R10, R_R11, R_R12, R_R13, R_R14, R_R15, R_NGPR
};

/* Offsets are the harness's: keep regs_harness.S in step. */
struct regs {
	uint64_t gpr[R_NGPR];		/* 0; rsp is never loaded */
	uint64_t flags;			/* 128 */
	uint32_t mxcsr;			/* 136 */
	uint32_t pad[13];
	uint8_t ymm[16][32] __attribute__((aligned(32)));	/* 192 */
};

_Static_assert(offsetof(struct regs, flags) == 128, "harness offsets");
_Static_assert(offsetof(struct regs, mxcsr) == 136, "harness offsets");
_Static_assert(offsetof(struct regs, ymm) == 192, "harness offsets");

/* Load in, call fn, store what came back in out.  The _avx form loads
 * and stores all 256 bits of ymm0-15; the _sse form xmm0-15. */
void regs_call_avx(void (*fn)(void), const struct regs *in, struct regs *out);
void regs_call_sse(void (*fn)(void), const struct regs *in, struct regs *out);

/* Which registers a check compares. */
enum regs_set {
	/* Everything a sled may not touch: every GPR but rsp, r10 (the
	 * sled loads the function id in it) and those the caller names as
	 * arguments, xmm0-15 (all of ymm with AVX), all of MXCSR. */
	REGS_SLED,
	/* What the ABI keeps across a return: REGS_SLED but rcx, rsi,
	 * rdi and r8-r11.  What compiler-rt's exit trampoline keeps (its
	 * handler is an ordinary call); the vector state stays whole. */
	REGS_RETURN,
	/* What the ABI keeps across a call: rbx, rbp, r12-r15, MXCSR's
	 * control bits. */
	REGS_CALL,
	/* What a patched function's hooks keep (-P, fdr-cc --patchable):
	 * REGS_SLED and r10 (a caller built with -fipa-ra may keep any
	 * register its callee does not write). */
	REGS_PATCH,
};

/* The sentinels: fresh random values from *seed, flags with random
 * arithmetic bits, MXCSR rounding toward zero with all exceptions
 * masked (not the default, so a reset shows). */
void regs_fill(struct regs *r, uint64_t *seed);

/* Compare in and out over set, skipping the GPRs in skip_mask (1 << R_x).
 * Writes the first difference to why; true when equal. */
bool regs_same(const struct regs *in, const struct regs *out, enum regs_set set,
	       uint32_t skip_mask, bool avx, char *why, size_t whylen);

/* Does this CPU and OS run AVX (ymm state enabled)? */
bool regs_have_avx(void);

#endif /* ADAPTERS_TESTS_REGS_H */
