/* SPDX-License-Identifier: MIT */
/*
 * plt_tramp_x86_64.S - the two trampolines of library-call tracing
 * (plt_hook.h, Documentation/integrations.md "Library calls").
 *
 * fdr__plt_entry: reached from a per-symbol stub ("push $index; jmp
 * *abs") that a rewritten GOT entry points to, so on entry
 *   [rsp] = the symbol's index, [rsp+8] = the caller's return address.
 * It keeps every register a callee may read (rdi..r9, rax for varargs,
 * r10 the static chain, xmm0-7) around fdr__plt_enter, which records the
 * entry, may replace the return address with fdr__plt_return and gives
 * back the real target, then drops the index and jumps there with the
 * stack exactly as the caller left it.  r11 is the ABI's scratch
 * register between caller and callee (the PLT's own), so it carries
 * the target.
 *
 * fdr__plt_return: the callee returned here instead of to its caller;
 * rsp is the caller's stack pointer after the return.  It keeps the
 * return registers (rax, rdx, xmm0, xmm1; st0/st1 are never touched by
 * the C code) around fdr__plt_exit, which records the exit and gives
 * back the real return address.  The upper halves of ymm0-7 (__m256
 * arguments, a __m256 result) are not saved here: the C called touches
 * no vector register (plt_shadow.c, vstate_call.h).
 */
	.text

/* An rbp frame with size bytes of 16-aligned room at rsp, and its end. */
.macro FRAME_OPEN size
	push	%rbp
	mov	%rsp, %rbp
	sub	$\size, %rsp
	and	$-16, %rsp
.endm

.macro FRAME_CLOSE
	mov	%rbp, %rsp
	pop	%rbp
.endm

	.globl	fdr__plt_entry
	.hidden	fdr__plt_entry
	.type	fdr__plt_entry, @function
	.p2align 4
fdr__plt_entry:
	FRAME_OPEN 192
	mov	%rdi, 0(%rsp)
	mov	%rsi, 8(%rsp)
	mov	%rdx, 16(%rsp)
	mov	%rcx, 24(%rsp)
	mov	%r8, 32(%rsp)
	mov	%r9, 40(%rsp)
	mov	%rax, 48(%rsp)
	mov	%r10, 56(%rsp)
	movaps	%xmm0, 64(%rsp)
	movaps	%xmm1, 80(%rsp)
	movaps	%xmm2, 96(%rsp)
	movaps	%xmm3, 112(%rsp)
	movaps	%xmm4, 128(%rsp)
	movaps	%xmm5, 144(%rsp)
	movaps	%xmm6, 160(%rsp)
	movaps	%xmm7, 176(%rsp)
	mov	8(%rbp), %rdi		/* the symbol's index */
	lea	16(%rbp), %rsi		/* where the return address is */
	mov	%rsp, %rdx		/* the block, for -A (plt_args.h) */
	call	fdr__plt_enter_regs
	mov	%rax, %r11
	mov	0(%rsp), %rdi
	mov	8(%rsp), %rsi
	mov	16(%rsp), %rdx
	mov	24(%rsp), %rcx
	mov	32(%rsp), %r8
	mov	40(%rsp), %r9
	mov	48(%rsp), %rax
	mov	56(%rsp), %r10
	movaps	64(%rsp), %xmm0
	movaps	80(%rsp), %xmm1
	movaps	96(%rsp), %xmm2
	movaps	112(%rsp), %xmm3
	movaps	128(%rsp), %xmm4
	movaps	144(%rsp), %xmm5
	movaps	160(%rsp), %xmm6
	movaps	176(%rsp), %xmm7
	FRAME_CLOSE
	lea	8(%rsp), %rsp		/* drop the index */
	jmp	*%r11
	.size	fdr__plt_entry, .-fdr__plt_entry

	.globl	fdr__plt_return
	.hidden	fdr__plt_return
	.type	fdr__plt_return, @function
	.p2align 4
fdr__plt_return:
	FRAME_OPEN 64			/* rbp goes into the slot the return freed */
	mov	%rax, 0(%rsp)
	mov	%rdx, 8(%rsp)
	movaps	%xmm0, 16(%rsp)
	movaps	%xmm1, 32(%rsp)
	lea	8(%rbp), %rdi		/* the caller's rsp after the return */
	mov	%rsp, %rsi		/* rax, rdx, xmm0, xmm1, for -R */
	call	fdr__plt_exit_regs
	mov	%rax, %r11
	mov	0(%rsp), %rax
	mov	8(%rsp), %rdx
	movaps	16(%rsp), %xmm0
	movaps	32(%rsp), %xmm1
	FRAME_CLOSE
	jmp	*%r11
	.size	fdr__plt_return, .-fdr__plt_return

	.section .note.GNU-stack,"",@progbits
