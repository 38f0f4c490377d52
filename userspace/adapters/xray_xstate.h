/* SPDX-License-Identifier: MIT */
/*
 * xray_xstate.h - how the trampolines keep the vector state around a
 * call into C (xray_tramp_x86_64.S, VSTATE_SAVE).
 */
#ifndef FDR_XRAY_XSTATE_H
#define FDR_XRAY_XSTATE_H

#include <stdint.h>

/* XSAVE's requested-feature mask (0: use fxsave) and the bytes to take
 * below the frame, alignment slack included.  Until fdr__xstate_init()
 * runs they describe fxsave, which is right on every x86-64 CPU. */
extern volatile uint32_t fdr__xstate_mask;
extern volatile uint64_t fdr__xstate_size;

/* Switch to XSAVE of every user state component the OS enabled that C
 * may touch (x87, SSE, AVX, AVX-512).  Idempotent, thread-safe. */
void fdr__xstate_init(void);

#endif /* FDR_XRAY_XSTATE_H */
