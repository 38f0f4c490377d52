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
 * rdx, rsi, rdi and r8-r11, and neither carries the target in a
 * register (fdr__patch_entry calls it from the red zone).  The flags are
 * not kept (no compiler keeps them live across a call).  No vector register
 * (xmm/ymm/zmm, k) needs saving here: the C called touches none before
 * fdr__vstate_call, which keeps them all (plt_shadow.c, vstate_call.h;
 * tests/tramp_regs.py checks every instruction reachable from here in
 * the linked libfdr-plt.so, tests/hook_regs.sh the objects).
 *
 * Each trampoline first calls the common case (fdr__patch_try_enter,
 * fdr__patch_try_exit: no_caller_saved_registers, calling nothing), so
 * that it keeps only the registers of that call; it saves the rest only
 * when the common case declined (0) and the general C must run.  Saving
 * nine registers and the general C's own six around every call cost a
 * third of -P's overhead per event on an Intel Xeon (bench/patch/README.md).
 * tools/fdr/tests/patch_test.sh checks every register but rsp across
 * patched calls on both paths (adapters/tests/patch_regs.c).
 */
	.text

/* Save the caller-saved registers in a 16-aligned area of an rbp frame. */
.macro SAVE_ALL
	push	%rbp
	mov	%rsp, %rbp
	sub	$80, %rsp
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
	mov	%rbp, %rsp
	pop	%rbp
.endm

/*
 * Jumped to by a patched function's stub ("push $index; jmp *cell":
 * patch_stub.h), so [rsp] = index, [rsp+8] = the caller's return
 * address, the slot.  fdr__plt_enter records the entry, keeps the real
 * return address in the shadow stack and puts fdr__patch_return in the
 * slot; then this calls the function's moved code from the slot's
 * height: the call writes fdr__patch_return into the slot again, so the
 * function sees the same stack as from its caller (its stack arguments
 * where they were), and the CPU's return predictor expects its ret at
 * fdr__patch_return, whose ret to the real address then pops the
 * caller's own entry (no ret here pops one that no call pushed).  The
 * target travels in the index's cell, above rsp at the call and in the
 * red zone after, which signal frames skip: no register carries it.
 * When the shadow stack did not take the call (no id, or full: the slot
 * does not hold fdr__patch_return), the function is jumped to with the
 * slot as it is.
 */
	.globl	fdr__patch_entry
	.hidden	fdr__patch_entry
	.type	fdr__patch_entry, @function
	.p2align 4
fdr__patch_entry:
	push	%rax
	push	%rsi
	push	%rdi
	lea	-8(%rsp), %rsp		/* rsp 16-aligned at the call */
	mov	32(%rsp), %rdi		/* the symbol's index */
	lea	40(%rsp), %rsi		/* where the return address is */
	call	fdr__patch_try_enter
	test	%rax, %rax		/* its flags live through the movs and pops */
	jz	2f
	mov	%rax, 32(%rsp)		/* the target, in the index's cell */
2:	lea	8(%rsp), %rsp
	pop	%rdi
	pop	%rsi
	pop	%rax
	jnz	1f			/* taken: the slot holds fdr__patch_return */
	SAVE_ALL			/* else the general path */
	mov	8(%rbp), %rdi		/* the symbol's index */
	lea	16(%rbp), %rsi		/* where the return address is */
	call	fdr__plt_enter
	mov	%rax, 8(%rbp)		/* the target, in the index's cell */
	lea	fdr__patch_return(%rip), %rax
	cmp	%rax, 16(%rbp)
	RESTORE_ALL			/* movs and a pop: the flags stay */
	je	1f
	lea	8(%rsp), %rsp		/* not taken: the caller's rsp after its call */
	jmp	*-8(%rsp)
1:	lea	16(%rsp), %rsp		/* the caller's rsp before its call */
	call	*-16(%rsp)		/* returns to fdr__patch_return */
	.size	fdr__patch_entry, .-fdr__patch_entry

/* A patched function returned here; rsp is its caller's after the return. */
	.globl	fdr__patch_return
	.hidden	fdr__patch_return
	.type	fdr__patch_return, @function
fdr__patch_return:
	lea	-8(%rsp), %rsp		/* the freed return slot, for the real one */
	push	%rax
	push	%rdx
	push	%rdi
	lea	32(%rsp), %rdi		/* the caller's rsp after the return */
	call	fdr__patch_try_exit
	test	%rax, %rax		/* its flags live through the movs and pops */
	jz	2f
	mov	%rax, 24(%rsp)		/* the real return address, in the freed slot */
2:	pop	%rdi
	pop	%rdx
	pop	%rax
	jz	3f
	ret				/* taken: pops the caller's call */
3:	SAVE_ALL			/* else the general path */
	lea	16(%rbp), %rdi		/* the caller's rsp after the return */
	call	fdr__plt_exit
	mov	%rax, 8(%rbp)
	RESTORE_ALL
	ret				/* pops the caller's call */
	.size	fdr__patch_return, .-fdr__patch_return

	.section .note.GNU-stack,"",@progbits
