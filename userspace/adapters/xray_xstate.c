// SPDX-License-Identifier: MIT
/*
 * xray_xstate.c - pick how the trampolines' general path keeps the
 * vector registers (xray_xstate.h).
 *
 * The general path calls C, which may use any vector register (glibc's
 * string functions use ymm0-15 and zero their upper halves with
 * vzeroupper, or ymm16-31 and the mask registers on AVX-512 machines),
 * while the sled's function keeps values in them.  Explicit moves of the
 * registers the CPU has cost 4 ns (ymm) to 21 ns (zmm and k) a save and
 * restore; XSAVE/XRSTOR 150-190 ns, so it is kept for what the moves do
 * not cover: AVX-512 without AVX512BW's 64-bit masks.  The x87 stack is
 * not kept: nothing on these paths uses long double.
 */
#include <cpuid.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "fdr.h"
#include "fdr_env.h"
#include "xray_xstate.h"

#define VREGS		64u	/* MXCSR, then the registers */
#define ALIGN_SLACK	64u
#define XSAVE_LEGACY	512u
#define XSAVE_HEADER	64u
#define XCR0_SSE	(1u << 1)
#define XCR0_AVX	(1u << 2)
#define XCR0_AVX512	((1u << 5) | (1u << 6) | (1u << 7))
/* x87, SSE, AVX, AVX-512 opmask, ZMM_Hi256, Hi16_ZMM: not AMX. */
#define XSAVE_WANTED	(1u | XCR0_SSE | XCR0_AVX | XCR0_AVX512)
#define CPUID_1_ECX_OSXSAVE	(1u << 27)
#define CPUID_7_EBX_AVX512BW	(1u << 30)

volatile uint32_t fdr__xstate_kind = FDR_XSTATE_SSE;
volatile uint64_t fdr__xstate_size = VREGS + 16 * 16 + ALIGN_SLACK;
volatile uint32_t fdr__xstate_mask;

__FDR_NO_INSTRUMENT static uint32_t xcr0(void)
{
	unsigned int a, b, c, d;
	uint32_t lo, hi;

	if (!__get_cpuid(1, &a, &b, &c, &d) || !(c & CPUID_1_ECX_OSXSAVE))
		return XCR0_SSE;	/* no XSAVE: the SSE state only */
	__asm__ volatile("xgetbv" : "=a"(lo), "=d"(hi) : "c"(0));
	(void)hi;
	return lo;
}

__FDR_NO_INSTRUMENT static bool has_avx512bw(void)
{
	unsigned int a, b, c, d;

	return __get_cpuid_count(7, 0, &a, &b, &c, &d) && (b & CPUID_7_EBX_AVX512BW);
}

/* The standard (not compacted) XSAVE layout's end for mask. */
__FDR_NO_INSTRUMENT static uint64_t xsave_size(uint32_t mask)
{
	uint64_t end = XSAVE_LEGACY + XSAVE_HEADER;
	unsigned int a, b, c, d;

	for (unsigned int i = 2; i < 32; i++) {
		if (!(mask & (1u << i)))
			continue;
		__cpuid_count(0xd, i, a, b, c, d);
		if ((uint64_t)b + a > end)
			end = (uint64_t)b + a;	/* offset + size */
	}
	return end;
}

/* What the CPU and the OS give us. */
__FDR_NO_INSTRUMENT static enum fdr_xstate_kind best_kind(uint32_t x)
{
	if ((x & XCR0_AVX512) == XCR0_AVX512)
		return has_avx512bw() ? FDR_XSTATE_AVX512 : FDR_XSTATE_XSAVE;
	if (x & XCR0_AVX512)
		return FDR_XSTATE_XSAVE;	/* a part of it: let XSAVE say */
	return (x & XCR0_AVX) ? FDR_XSTATE_AVX : FDR_XSTATE_SSE;
}

/* $FDR_XRAY_VSTATE, if it names a form this machine can run. */
__FDR_NO_INSTRUMENT static enum fdr_xstate_kind forced_kind(enum fdr_xstate_kind best,
							  uint32_t x)
{
	static const char *const names[] = { "sse", "avx", "avx512", "xsave" };
	const char *want = fdr__env("FDR_XRAY_VSTATE");

	for (unsigned int k = 0; want && k < 4; k++) {
		if (strcmp(want, names[k]))
			continue;
		if (k == FDR_XSTATE_XSAVE && (x & XCR0_AVX))
			return FDR_XSTATE_XSAVE;
		if (k != FDR_XSTATE_XSAVE && k <= (unsigned int)best && best != FDR_XSTATE_XSAVE)
			return (enum fdr_xstate_kind)k;
	}
	return best;
}

__FDR_NO_INSTRUMENT static uint64_t area_of(enum fdr_xstate_kind k, uint32_t mask)
{
	switch (k) {
	case FDR_XSTATE_SSE:
		return 16 * 16;
	case FDR_XSTATE_AVX:
		return 16 * 32;
	case FDR_XSTATE_AVX512:
		return 32 * 64 + 8 * 8;
	case FDR_XSTATE_XSAVE:
		return xsave_size(mask);
	}
	return 0;
}

__FDR_NO_INSTRUMENT void fdr__xstate_init(void)
{
	static bool done;
	uint32_t x, mask;
	enum fdr_xstate_kind k;

	if (__atomic_load_n(&done, __ATOMIC_ACQUIRE))
		return;
	x = xcr0();
	mask = x & XSAVE_WANTED;
	k = forced_kind(best_kind(x), x);
	/* The size and mask first: a trampoline that reads the new kind
	 * must also read what it needs (it reads the kind first). */
	__atomic_store_n(&fdr__xstate_mask, mask, __ATOMIC_RELEASE);
	__atomic_store_n(&fdr__xstate_size, VREGS + area_of(k, mask) + ALIGN_SLACK,
			 __ATOMIC_RELEASE);
	__atomic_store_n(&fdr__xstate_kind, (uint32_t)k, __ATOMIC_RELEASE);
	__atomic_store_n(&done, true, __ATOMIC_RELEASE);
}

/* Before main, so that even compiler-rt's handlers called through the
 * shims before the mode initializes keep the whole state. */
__attribute__((constructor)) __FDR_NO_INSTRUMENT static void xstate_ctor(void)
{
	fdr__xstate_init();
}
