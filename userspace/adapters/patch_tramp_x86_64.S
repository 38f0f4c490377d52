/* SPDX-License-Identifier: MIT */
/*
 * patch_tramp_x86_64.S - the trampolines of patched functions
 * (patch_hook.h): the library-call ones' work (plt_tramp_x86_64.S, the
 * same fdr__plt_enter and fdr__plt_exit), keeping every register.
 *
 * A library call may clobber every caller-saved register, so its
 * trampolines keep only what the callee reads or returns.  A patched
 * function may be called by code compiled with GCC's -fipa-ra (on at
 * -O2), which knows which registers the function really writes and keeps
 * values in the others across the call (python3.11: r10 across a call of
 * PyPreConfig_InitPythonConfig).  So both trampolines here keep rax, rcx,
 * rdx, rsi, rdi, r8-r11 and xmm0-15, and neither carries the target in a
 * register: the stub jumps to its own moved code after fdr__patch_entry
 * returns to it; fdr__patch_return reserves the freed return slot for
 * the real return address and jumps through it, from the red zone (a
 * ret would pop a return-predictor entry no call pushed, and every
 * later return of the thread would be mispredicted).  The flags are not kept
 * (no compiler keeps them live across a call).  The upper halves of
 * ymm/zmm, zmm16-31 and k0-7 need no saving here: the C called touches
 * none (plt_shadow.c, vstate_call.h).
 */
	.text

/* Save the caller-saved registers in a 16-aligned area of an rbp frame. */
.macro SAVE_ALL
	push	%rbp
	mov	%rsp, %rbp
	sub	$336, %rsp
	and	$-16, %rsp
	mov	%rax, 0(%rsp)
	mov	%rcx, 8(%rsp)
	mov	%rdx, 16(%rsp)
	mov	%rsi, 24(%rsp)
	mov	%rdi, 32(%rsp)
	mov	%r8, 40(%rsp)
	mov	%r9, 48(%rsp)
	mov	%r10, 56(%rsp)
	mov	%r11, 64(%rsp)
	movaps	%xmm0, 80(%rsp)
	movaps	%xmm1, 96(%rsp)
	movaps	%xmm2, 112(%rsp)
	movaps	%xmm3, 128(%rsp)
	movaps	%xmm4, 144(%rsp)
	movaps	%xmm5, 160(%rsp)
	movaps	%xmm6, 176(%rsp)
	movaps	%xmm7, 192(%rsp)
	movaps	%xmm8, 208(%rsp)
	movaps	%xmm9, 224(%rsp)
	movaps	%xmm10, 240(%rsp)
	movaps	%xmm11, 256(%rsp)
	movaps	%xmm12, 272(%rsp)
	movaps	%xmm13, 288(%rsp)
	movaps	%xmm14, 304(%rsp)
	movaps	%xmm15, 320(%rsp)
.endm

.macro RESTORE_ALL
	mov	0(%rsp), %rax
	mov	8(%rsp), %rcx
	mov	16(%rsp), %rdx
	mov	24(%rsp), %rsi
	mov	32(%rsp), %rdi
	mov	40(%rsp), %r8
	mov	48(%rsp), %r9
	mov	56(%rsp), %r10
	mov	64(%rsp), %r11
	movaps	80(%rsp), %xmm0
	movaps	96(%rsp), %xmm1
	movaps	112(%rsp), %xmm2
	movaps	128(%rsp), %xmm3
	movaps	144(%rsp), %xmm4
	movaps	160(%rsp), %xmm5
	movaps	176(%rsp), %xmm6
	movaps	192(%rsp), %xmm7
	movaps	208(%rsp), %xmm8
	movaps	224(%rsp), %xmm9
	movaps	240(%rsp), %xmm10
	movaps	256(%rsp), %xmm11
	movaps	272(%rsp), %xmm12
	movaps	288(%rsp), %xmm13
	movaps	304(%rsp), %xmm14
	movaps	320(%rsp), %xmm15
	mov	%rbp, %rsp
	pop	%rbp
.endm

/*
 * Called by a patched function's stub (patch_main.c: "push $index; call
 * *cell; lea 8(%rsp),%rsp; jmp moved-code"), so [rsp] = the stub's
 * return, [rsp+8] = index, [rsp+16] = the caller's return address.  The
 * stub knows its target: this call and return pair up for the CPU's
 * return predictor.
 */
	.globl	fdr__patch_entry
	.hidden	fdr__patch_entry
	.type	fdr__patch_entry, @function
	.p2align 4
fdr__patch_entry:
	SAVE_ALL
	mov	16(%rbp), %rdi		/* the symbol's index */
	lea	24(%rbp), %rsi		/* where the return address is */
	call	fdr__plt_enter
	RESTORE_ALL
	ret
	.size	fdr__patch_entry, .-fdr__patch_entry

/* A patched function returned here; rsp is its caller's after the return. */
	.globl	fdr__patch_return
	.hidden	fdr__patch_return
	.type	fdr__patch_return, @function
	.p2align 4
fdr__patch_return:
	lea	-8(%rsp), %rsp		/* the freed return slot, for the real one */
	SAVE_ALL
	lea	16(%rbp), %rdi		/* the caller's rsp after the return */
	call	fdr__plt_exit
	mov	%rax, 8(%rbp)
	RESTORE_ALL
	lea	8(%rsp), %rsp		/* the caller's rsp; the address stays */
	jmp	*-8(%rsp)		/* in the red zone, which signals skip */
	.size	fdr__patch_return, .-fdr__patch_return

	.section .note.GNU-stack,"",@progbits
