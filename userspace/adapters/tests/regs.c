// SPDX-License-Identifier: MIT
/*
 * regs.c - sentinels and comparison for the register harness (regs.h).
 */
#include <cpuid.h>
#include <stdio.h>
#include <string.h>

#include "regs.h"

/* CF, PF, AF, ZF, SF, OF.  Bit 1 always reads 1 and user code cannot
 * clear IF; never DF or TF. */
#define FLAGS_ARITH	0x8d5u
#define FLAGS_FIXED	0x202u
/* Round toward zero, every exception masked. */
#define MXCSR_SENTINEL	0x7f80u

static const char *const gpr_name[R_NGPR] = {
	"rax", "rbx", "rcx", "rdx", "rsi", "rdi", "rbp", "rsp",
	"r8", "r9", "r10", "r11", "r12", "r13", "r14", "r15",
};

static uint64_t next(uint64_t *s)
{
	uint64_t x = *s;

	x ^= x << 13;
	x ^= x >> 7;
	x ^= x << 17;
	return *s = x;
}

void regs_fill(struct regs *r, uint64_t *seed)
{
	memset(r, 0, sizeof(*r));
	for (int i = 0; i < R_NGPR; i++)
		r->gpr[i] = next(seed);
	r->flags = (next(seed) & FLAGS_ARITH) | FLAGS_FIXED;
	r->mxcsr = MXCSR_SENTINEL;
	for (int i = 0; i < 16; i++)
		for (int j = 0; j < 32; j += 8) {
			uint64_t v = next(seed);

			memcpy(&r->ymm[i][j], &v, sizeof(v));
		}
}

/* MXCSR's status flags, which the ABI leaves to the caller. */
#define MXCSR_STATUS	0x3fu

static bool in_set(int gpr, enum regs_set set)
{
	bool callee_saved = gpr == R_RBX || gpr == R_RBP || gpr >= R_R12;

	switch (set) {
	case REGS_SLED:
		return gpr != R_RSP && gpr != R_R10;
	case REGS_RETURN:
		return callee_saved || gpr == R_RAX || gpr == R_RDX;
	case REGS_CALL:
		return callee_saved;
	case REGS_PATCH:
		return gpr != R_RSP;
	}
	return false;
}

bool regs_same(const struct regs *in, const struct regs *out, enum regs_set set,
	       uint32_t skip_mask, bool avx, char *why, size_t whylen)
{
	size_t vlen = avx ? 32 : 16;

	for (int i = 0; i < R_NGPR; i++) {
		if (!in_set(i, set) || (skip_mask & (1u << i)) ||
		    in->gpr[i] == out->gpr[i])
			continue;
		snprintf(why, whylen, "%s: %#lx became %#lx", gpr_name[i],
			 (unsigned long)in->gpr[i], (unsigned long)out->gpr[i]);
		return false;
	}
	if ((in->mxcsr ^ out->mxcsr) & (set == REGS_CALL ? ~MXCSR_STATUS : ~0u)) {
		snprintf(why, whylen, "mxcsr: %#x became %#x", in->mxcsr, out->mxcsr);
		return false;
	}
	if (set == REGS_CALL)
		return true;
	for (int i = 0; i < 16; i++) {
		if (!memcmp(in->ymm[i], out->ymm[i], vlen))
			continue;
		snprintf(why, whylen, "%s%d: %s changed", avx ? "ymm" : "xmm", i,
			 memcmp(in->ymm[i], out->ymm[i], 16) ? "the low 128 bits" :
							    "the upper half");
		return false;
	}
	return true;
}

bool regs_have_avx(void)
{
	unsigned int a, b, c, d, lo, hi;

	if (!__get_cpuid(1, &a, &b, &c, &d) || !(c & bit_OSXSAVE) || !(c & bit_AVX))
		return false;
	__asm__ volatile("xgetbv" : "=a"(lo), "=d"(hi) : "c"(0));
	return (lo & 6) == 6;	/* SSE and AVX state enabled */
}
