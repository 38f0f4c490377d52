/* SPDX-License-Identifier: MIT */
/*
 * vstate_x86_64.h - assembly macros that keep MXCSR and every vector
 * register around a call into C that may touch them (libc's AVX string
 * functions): the XRay trampolines' general path (xray_tramp_x86_64.S)
 * and fdr__vstate_call (vstate_call_x86_64.S), the library-call and -P
 * hooks' general path.  Included by .S files only.
 */
#ifndef FDR_VSTATE_X86_64_H
#define FDR_VSTATE_X86_64_H

/*
 * VSTATE_SAVE / VSTATE_RESTORE: MXCSR and the vector registers, below a
 * frame whose rbp the caller set (8 bytes under rbp free for the kind).
 * Clobbers rax, rdx and the flags; leaves rsp 64-aligned.  The kind
 * (xray_xstate.h) is read before the size and kept in the frame, so a
 * thread restores with the form it saved with while xray_xstate.c
 * switches from the static default.  Explicit moves, not XSAVE: XSAVE
 * and XRSTOR cost 150-190 ns a pair where 32 zmm moves cost 21 (bench).
 * Area: MXCSR at 0, registers from 64.
 */
#define VSTATE_SSE	0
#define VSTATE_AVX	1
#define VSTATE_AVX512	2
#define VSTATE_XSAVE	3
#define VREGS		64

.macro VSTATE_SAVE
	movl	fdr__xstate_kind(%rip), %eax
	movq	%rax, -8(%rbp)
	subq	fdr__xstate_size(%rip), %rsp
	andq	$-64, %rsp
	stmxcsr	(%rsp)
	cmpl	$VSTATE_AVX, %eax
	jb	.Lsse\@
	je	.Lavx\@
	cmpl	$VSTATE_AVX512, %eax
	je	.Lavx512\@
	/* XRSTOR faults on a header with stray bytes; XSAVE writes only
	 * its XSTATE_BV word. */
	.irp off, 0, 8, 16, 24, 32, 40, 48, 56
	movq	$0, (VREGS + 512 + \off)(%rsp)
	.endr
	movl	fdr__xstate_mask(%rip), %eax
	xorl	%edx, %edx
	xsave64	VREGS(%rsp)
	jmp	.Lsaved\@
.Lsse\@:
	.irp i, 0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15
	movdqu	%xmm\i, (VREGS + 16 * \i)(%rsp)
	.endr
	jmp	.Lsaved\@
.Lavx\@:
	.irp i, 0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15
	vmovdqu	%ymm\i, (VREGS + 32 * \i)(%rsp)
	.endr
	jmp	.Lsaved\@
.Lavx512\@:
	.irp i, 0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,24,25,26,27,28,29,30,31
	vmovdqu64 %zmm\i, (VREGS + 64 * \i)(%rsp)
	.endr
	.irp i, 0,1,2,3,4,5,6,7
	kmovq	%k\i, (VREGS + 2048 + 8 * \i)(%rsp)
	.endr
.Lsaved\@:
.endm

.macro VSTATE_RESTORE
	movq	-8(%rbp), %rax
	cmpl	$VSTATE_AVX, %eax
	jb	.Lsse\@
	je	.Lavx\@
	cmpl	$VSTATE_AVX512, %eax
	je	.Lavx512\@
	movl	fdr__xstate_mask(%rip), %eax
	xorl	%edx, %edx
	xrstor64 VREGS(%rsp)
	jmp	.Lrestored\@
.Lsse\@:
	.irp i, 0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15
	movdqu	(VREGS + 16 * \i)(%rsp), %xmm\i
	.endr
	jmp	.Lrestored\@
.Lavx\@:
	.irp i, 0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15
	vmovdqu	(VREGS + 32 * \i)(%rsp), %ymm\i
	.endr
	jmp	.Lrestored\@
.Lavx512\@:
	.irp i, 0,1,2,3,4,5,6,7
	kmovq	(VREGS + 2048 + 8 * \i)(%rsp), %k\i
	.endr
	.irp i, 0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,24,25,26,27,28,29,30,31
	vmovdqu64 (VREGS + 64 * \i)(%rsp), %zmm\i
	.endr
.Lrestored\@:
	ldmxcsr	(%rsp)
.endm

#endif /* FDR_VSTATE_X86_64_H */
