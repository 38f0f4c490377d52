/* SPDX-License-Identifier: MIT */
/*
 * vstate_call.h - call C that may touch any vector register from code
 * that must not: the library-call and -P hooks (plt_shadow.c, compiled
 * with -mgeneral-regs-only) run between a caller and its callee, whose
 * arguments may be __m256/__m512 in ymm/zmm0-7 (the trampolines keep
 * xmm0-7 or xmm0-15 only, their lower halves), and a caller compiled
 * with GCC's -fipa-ra may keep values in any vector register the callee
 * does not write.  The recorder's general path (a new buffer, a new
 * thread) may run libc's AVX string functions, whose vzeroupper clears
 * the upper halves of ymm0-15 (the AVX-512 forms use ymm16-31 and the
 * mask registers): it runs through fdr__vstate_call, which keeps them
 * all in the form xray_xstate.c picked (explicit moves, or XSAVE).
 */
#ifndef FDR_VSTATE_CALL_H
#define FDR_VSTATE_CALL_H

#include <stdint.h>

/* fn(arg) with MXCSR and every vector register kept (vstate_call_x86_64.S). */
void fdr__vstate_call(void (*fn)(int32_t), int32_t arg);
/* The same for fn(ptr): a call with more to pass (plt_args.h). */
void fdr__vstate_call_ptr(void (*fn)(void *), void *ptr);

#endif /* FDR_VSTATE_CALL_H */
