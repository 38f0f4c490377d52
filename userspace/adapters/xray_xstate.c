// SPDX-License-Identifier: MIT
/*
 * xray_xstate.c - size the save area of the trampolines' general path.
 *
 * The general path calls C, which may use any vector register (libc's
 * memcpy uses ymm and zeroes their upper halves with vzeroupper), while
 * the sled's function keeps values in them.  XSAVE saves exactly the
 * components the OS enabled, in a layout CPUID describes: the legacy
 * 512 bytes (x87, SSE), a 64-byte header, then each extended component
 * at its own offset.  AMX tiles (and supervisor state) are left out: C
 * never touches them, and they would take 8 KiB of the program's stack.
 */
#include <cpuid.h>
#include <stdbool.h>
#include <stdint.h>

#include "fdr.h"
#include "xray_xstate.h"

#define XSAVE_LEGACY	512u
#define XSAVE_HEADER	64u
/* x87, SSE, AVX, AVX-512 opmask, ZMM_Hi256, Hi16_ZMM. */
#define XSAVE_WANTED	((1u << 0) | (1u << 1) | (1u << 2) | (1u << 5) | \
			 (1u << 6) | (1u << 7))
#define CPUID_1_ECX_OSXSAVE	(1u << 27)
/* Room to align rsp down to 64. */
#define ALIGN_SLACK	64u

volatile uint32_t fdr__xstate_mask;
volatile uint64_t fdr__xstate_size = XSAVE_LEGACY + ALIGN_SLACK;

__FDR_NO_INSTRUMENT static uint64_t xgetbv0(void)
{
	uint32_t lo, hi;

	__asm__ volatile("xgetbv" : "=a"(lo), "=d"(hi) : "c"(0));
	return (uint64_t)hi << 32 | lo;
}

/* The enabled components we save, or 0 when the OS did not enable XSAVE. */
__FDR_NO_INSTRUMENT static uint32_t wanted_mask(void)
{
	unsigned int a, b, c, d;

	if (!__get_cpuid(1, &a, &b, &c, &d) || !(c & CPUID_1_ECX_OSXSAVE))
		return 0;
	if (__get_cpuid_max(0, NULL) < 0xd)
		return 0;
	return (uint32_t)xgetbv0() & XSAVE_WANTED;
}

/* The standard (not compacted) layout's end for mask. */
__FDR_NO_INSTRUMENT static uint64_t area_size(uint32_t mask)
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

__FDR_NO_INSTRUMENT void fdr__xstate_init(void)
{
	static bool done;
	uint32_t mask;

	if (__atomic_load_n(&done, __ATOMIC_ACQUIRE))
		return;
	mask = wanted_mask();
	if (mask) {
		/* The size first: a trampoline that reads the new mask must
		 * also read the size it needs (it reads the mask first). */
		__atomic_store_n(&fdr__xstate_size, area_size(mask) + ALIGN_SLACK,
				 __ATOMIC_RELEASE);
		__atomic_store_n(&fdr__xstate_mask, mask, __ATOMIC_RELEASE);
	}
	__atomic_store_n(&done, true, __ATOMIC_RELEASE);
}

/* Before main, so that even compiler-rt's handlers called through the
 * shims before the mode initializes save the whole state. */
__attribute__((constructor)) __FDR_NO_INSTRUMENT static void xstate_ctor(void)
{
	fdr__xstate_init();
}
