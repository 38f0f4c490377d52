/* SPDX-License-Identifier: MIT */
/*
 * call_on_stack_x86_64.S - fdr__call_on_stack(top, fn, arg): call
 * fn(arg) with rsp at top (16-aligned), then come back to the caller's
 * stack.  The hooks' slow paths run on a stack of their own this way
 * (call_on_stack.h), so that a program on a small stack (a coroutine's,
 * a green thread's) only pays for the hook's fast path.  rbp holds the
 * way back, and the CFI says so, so debuggers and unwinders can walk
 * from fn into the caller's frames.
 */
	.text
	.globl	fdr__call_on_stack
	.type	fdr__call_on_stack,@function
	.p2align 4
fdr__call_on_stack:
	.cfi_startproc
	pushq	%rbp
	.cfi_adjust_cfa_offset 8
	.cfi_rel_offset %rbp, 0
	movq	%rsp, %rbp
	.cfi_def_cfa_register %rbp
	movq	%rdi, %rsp
	movq	%rdx, %rdi
	call	*%rsi
	movq	%rbp, %rsp
	.cfi_def_cfa_register %rsp
	popq	%rbp
	.cfi_restore %rbp
	.cfi_adjust_cfa_offset -8
	ret
	.cfi_endproc
	.size	fdr__call_on_stack, .-fdr__call_on_stack

	.section .note.GNU-stack,"",@progbits
