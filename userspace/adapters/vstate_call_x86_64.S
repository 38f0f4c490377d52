/* SPDX-License-Identifier: MIT */
/*
 * vstate_call_x86_64.S - fdr__vstate_call(fn, arg) and
 * fdr__vstate_call_ptr(fn, ptr): fn(arg) with MXCSR and every vector
 * register (xmm/ymm/zmm, k) kept (vstate_call.h).
 */
#include "vstate_x86_64.h"

/* fn(arg) with the vector state kept; MOVARG puts arg in rdi. */
.macro VSTATE_CALL name, movarg
	.globl	\name
	.hidden	\name
	.type	\name, @function
	.p2align 4
\name:
	.cfi_startproc
	pushq	%rbp
	.cfi_adjust_cfa_offset 8
	.cfi_rel_offset %rbp, 0
	movq	%rsp, %rbp
	.cfi_def_cfa_register %rbp
	subq	$8, %rsp		/* the kind's slot, -8(%rbp) */
	VSTATE_SAVE			/* clobbers rax, rdx: not fn, arg */
	movq	%rdi, %rax
	\movarg
	call	*%rax
	VSTATE_RESTORE
	movq	%rbp, %rsp
	.cfi_def_cfa_register %rsp
	popq	%rbp
	.cfi_restore %rbp
	.cfi_def_cfa_offset 8
	ret
	.cfi_endproc
	.size	\name, .-\name
.endm

	.text
	VSTATE_CALL fdr__vstate_call, "movl %esi, %edi"
	VSTATE_CALL fdr__vstate_call_ptr, "movq %rsi, %rdi"

	.section .note.GNU-stack,"",@progbits
