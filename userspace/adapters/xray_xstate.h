/* SPDX-License-Identifier: MIT */
/*
 * xray_xstate.h - how the trampolines keep the vector state around a
 * call into C (xray_tramp_x86_64.S, VSTATE_SAVE).
 */
#ifndef FDR_XRAY_XSTATE_H
#define FDR_XRAY_XSTATE_H

#include <stdint.h>

/* The forms of VSTATE_SAVE (the assembly's VSTATE_* numbers). */
enum fdr_xstate_kind {
	FDR_XSTATE_SSE,		/* xmm0-15 */
	FDR_XSTATE_AVX,		/* ymm0-15 */
	FDR_XSTATE_AVX512,	/* zmm0-31, k0-7 (64-bit masks: AVX512BW) */
	FDR_XSTATE_XSAVE,	/* XSAVE of fdr__xstate_mask: anything else */
};

/* The form, the bytes to take below the frame (alignment slack
 * included) and XSAVE's requested-feature mask.  Until fdr__xstate_init()
 * runs: xmm0-15, right on every x86-64 CPU. */
extern volatile uint32_t fdr__xstate_kind;
extern volatile uint64_t fdr__xstate_size;
extern volatile uint32_t fdr__xstate_mask;

/* Pick the form for every vector register the OS enabled that C may
 * touch; $FDR_XRAY_VSTATE (sse, avx, avx512, xsave) forces one the CPU
 * has (the tests run each).  Idempotent, thread-safe. */
void fdr__xstate_init(void);

#endif /* FDR_XRAY_XSTATE_H */
