/* SPDX-License-Identifier: MIT */
/*
 * regs_harness.S - regs_call_avx/_sse (regs.h): every register loaded
 * from a struct regs, a call, every register stored back.  Only rsp
 * keeps its meaning across the call; the callee-saved registers are
 * this function's to save.
 */
#define OFF_FLAGS	128
#define OFF_MXCSR	136
#define OFF_YMM		192

.macro VLOAD avx, i
	.if \avx
	vmovdqu	(OFF_YMM + 32 * \i)(%rsi), %ymm\i
	.else
	movdqu	(OFF_YMM + 32 * \i)(%rsi), %xmm\i
	.endif
.endm

.macro VSTORE avx, i
	.if \avx
	vmovdqu	%ymm\i, (OFF_YMM + 32 * \i)(%rsi)
	.else
	movdqu	%xmm\i, (OFF_YMM + 32 * \i)(%rsi)
	.endif
.endm

.macro HARNESS name, avx
	.globl	\name
	.type	\name,@function
	.p2align 4
\name:
	.cfi_startproc
	pushq	%rbp
	.cfi_adjust_cfa_offset 8
	pushq	%rbx
	.cfi_adjust_cfa_offset 8
	pushq	%r12
	.cfi_adjust_cfa_offset 8
	pushq	%r13
	.cfi_adjust_cfa_offset 8
	pushq	%r14
	.cfi_adjust_cfa_offset 8
	pushq	%r15
	.cfi_adjust_cfa_offset 8
	subq	$24, %rsp		/* 0: fn, 8: out, 16: our MXCSR */
	.cfi_adjust_cfa_offset 24
	movq	%rdi, 0(%rsp)
	movq	%rdx, 8(%rsp)
	stmxcsr	16(%rsp)
	.irp i, 0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15
	VLOAD	\avx, \i
	.endr
	ldmxcsr	OFF_MXCSR(%rsi)
	pushq	OFF_FLAGS(%rsi)
	popfq
	movq	0(%rsi), %rax
	movq	8(%rsi), %rbx
	movq	16(%rsi), %rcx
	movq	24(%rsi), %rdx
	movq	48(%rsi), %rbp
	movq	64(%rsi), %r8
	movq	72(%rsi), %r9
	movq	80(%rsi), %r10
	movq	88(%rsi), %r11
	movq	96(%rsi), %r12
	movq	104(%rsi), %r13
	movq	112(%rsi), %r14
	movq	120(%rsi), %r15
	movq	40(%rsi), %rdi
	movq	32(%rsi), %rsi
	call	*0(%rsp)
	pushfq
	pushq	%rsi
	movq	24(%rsp), %rsi		/* out, under the two pushes */
	movq	%rax, 0(%rsi)
	movq	%rbx, 8(%rsi)
	movq	%rcx, 16(%rsi)
	movq	%rdx, 24(%rsi)
	movq	%rdi, 40(%rsi)
	movq	%rbp, 48(%rsi)
	movq	%r8, 64(%rsi)
	movq	%r9, 72(%rsi)
	movq	%r10, 80(%rsi)
	movq	%r11, 88(%rsi)
	movq	%r12, 96(%rsi)
	movq	%r13, 104(%rsi)
	movq	%r14, 112(%rsi)
	movq	%r15, 120(%rsi)
	popq	%rax
	movq	%rax, 32(%rsi)
	popq	%rax
	movq	%rax, OFF_FLAGS(%rsi)
	stmxcsr	OFF_MXCSR(%rsi)
	.irp i, 0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15
	VSTORE	\avx, \i
	.endr
	.if \avx
	vzeroupper
	.endif
	ldmxcsr	16(%rsp)
	addq	$24, %rsp
	.cfi_adjust_cfa_offset -24
	popq	%r15
	.cfi_adjust_cfa_offset -8
	popq	%r14
	.cfi_adjust_cfa_offset -8
	popq	%r13
	.cfi_adjust_cfa_offset -8
	popq	%r12
	.cfi_adjust_cfa_offset -8
	popq	%rbx
	.cfi_adjust_cfa_offset -8
	popq	%rbp
	.cfi_adjust_cfa_offset -8
	ret
	.cfi_endproc
	.size	\name, .-\name
.endm

	.text
	HARNESS regs_call_avx, 1
	HARNESS regs_call_sse, 0

	.section .note.GNU-stack,"",@progbits
