/* SPDX-License-Identifier: MIT */
/*
 * vstate_call_x86_64.S - fdr__vstate_call(fn, arg): fn(arg) with MXCSR
 * and every vector register (xmm/ymm/zmm, k) kept (vstate_call.h).
 */
#include "vstate_x86_64.h"

	.text
	.globl	fdr__vstate_call
	.hidden	fdr__vstate_call
	.type	fdr__vstate_call, @function
	.p2align 4
fdr__vstate_call:
	.cfi_startproc
	pushq	%rbp
	.cfi_adjust_cfa_offset 8
	.cfi_rel_offset %rbp, 0
	movq	%rsp, %rbp
	.cfi_def_cfa_register %rbp
	subq	$8, %rsp		/* the kind's slot, -8(%rbp) */
	VSTATE_SAVE			/* clobbers rax, rdx: not fn, arg */
	movq	%rdi, %rax
	movl	%esi, %edi
	call	*%rax
	VSTATE_RESTORE
	movq	%rbp, %rsp
	.cfi_def_cfa_register %rsp
	popq	%rbp
	.cfi_restore %rbp
	.cfi_def_cfa_offset 8
	ret
	.cfi_endproc
	.size	fdr__vstate_call, .-fdr__vstate_call

	.section .note.GNU-stack,"",@progbits
