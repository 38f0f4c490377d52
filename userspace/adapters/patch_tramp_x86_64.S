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
 * Each trampoline first tries the common case in assembly, in the six
 * (entry) or five (exit) registers it pushes: the checks of
 * fdr__plt_enter_regs and fdr__plt_exit_regs that decline it (nothing to
 * close, no -A/-R, no catcher, not fdr's own call), the record by
 * FAST_FN (fast_fn_x86_64.h, the steps of <fdr_inline.h>'s fast path)
 * and the shadow stack's push or pop, at the offsets of
 * plt_shadow_asm.h; the writer and the shadow stack by their
 * initial-exec TLS offsets (libfdr-plt.so is a shared object).  Only
 * when it declines, having written nothing, does the trampoline save the
 * rest and call the general C.  Saving nine registers and the general
 * C's own six around every call cost a third of -P's overhead per event
 * on an Intel Xeon, and a common case in C compiled
 * no_caller_saved_registers, which saved the dozen registers it used,
 * another third (bench/patch/README.md).  tools/fdr/tests/patch_test.sh
 * checks every register but rsp across patched calls on both paths
 * (adapters/tests/patch_regs.c).
 */
	.text

/* A field of this thread's writer (fdr_thread_asm.h): r11 holds its
 * initial-exec offset while FAST_FN runs. */
#define TLS(field)	%fs:field(%r11)
#include "fast_fn_x86_64.h"
#include "plt_shadow_asm.h"

/* A field of this thread's shadow stack, rcx its initial-exec offset;
 * TOP: of its top entry, rax the depth times the entry's size. */
#define SH(field)	%fs:field(%rcx)
#define TOP(field)	%fs:SHADOW_E-(1<<SHADOW_E_SHIFT)+field(%rcx,%rax)

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
 * address, the slot.  The common case (below) or fdr__plt_enter records
 * the entry, keeps the real return address in the shadow stack and puts
 * fdr__patch_return in the slot; then this calls the function's moved
 * code from the slot's height: the call writes fdr__patch_return into
 * the slot again, so the function sees the same stack as from its caller
 * (its stack arguments where they were), and the CPU's return predictor
 * expects its ret at fdr__patch_return, whose ret to the real address
 * then pops the caller's own entry (no ret here pops one that no call
 * pushed).  The target travels in the index's cell, above rsp at the
 * call and in the red zone after, which signal frames skip: no register
 * carries it.  When the shadow stack did not take the call (no id, or
 * full: the slot does not hold fdr__patch_return), the function is
 * jumped to with the slot as it is.
 */
.macro PUSH_ENTRY_REGS
	push	%rax
	push	%rdx
	push	%rcx
	push	%rsi
	push	%r10
	push	%r11
.endm

.macro POP_ENTRY_REGS
	pop	%r11
	pop	%r10
	pop	%rsi
	pop	%rcx
	pop	%rdx
	pop	%rax
.endm

/* PUSH_ENTRY_REGS's frame: the symbol's index, the slot */
#define ENTRY_INDEX	48
#define ENTRY_SLOT	56

/*
 * FAST_FN's end at an entry, the Enter written: push the shadow entry
 * (rcx the shadow stack, rsi the symbol), hook the slot, call the target
 * (at 1 below).  fdr__plt_enter_regs's steps, in its order.
 */
.macro SHADOW_PUSH_CALL
	movl	SH(SHADOW_DEPTH), %eax
	cmpl	$SHADOW_MAX, %eax	/* still below: unless a signal handler */
	jb	12f			/* pushed and longjmp()ed out meanwhile */
	movl	$SHADOW_MAX - 1, %eax	/* (its entries are dead): in bounds */
12:	movq	%rax, %rdx
	shlq	$SHADOW_E_SHIFT, %rdx
	leaq	ENTRY_SLOT(%rsp), %r11
	movq	%r11, %fs:SHADOW_E+SHADOW_E_SLOT(%rcx,%rdx)
	movq	(%r11), %r10			/* the caller's return address */
	movq	%r10, %fs:SHADOW_E+SHADOW_E_RET(%rcx,%rdx)
	movl	PLT_SYM_FID(%rsi), %r10d
	movl	%r10d, %fs:SHADOW_E+SHADOW_E_FID(%rcx,%rdx)
	movb	$0, %fs:SHADOW_E+SHADOW_E_UNHOOKED(%rcx,%rdx)
	leaq	fdr__patch_return(%rip), %r10	/* the hook: the entry's, then the slot's */
	movq	%r10, %fs:SHADOW_E+SHADOW_E_HOOK(%rcx,%rdx)
	incl	%eax
	movl	%eax, SH(SHADOW_DEPTH)		/* a signal handler's calls push above it */
	movq	%r10, (%r11)
	movq	PLT_SYM_TARGET(%rsi), %rax
	movq	%rax, ENTRY_INDEX(%rsp)		/* the target, in the index's cell */
	POP_ENTRY_REGS
	jmp	1f
.endm

	.globl	fdr__patch_entry
	.hidden	fdr__patch_entry
	.type	fdr__patch_entry, @function
	.p2align 4
fdr__patch_entry:
	PUSH_ENTRY_REGS
	movq	fdr__plt_syms@GOTPCREL(%rip), %rsi
	imulq	$PLT_SYM_SIZE, ENTRY_INDEX(%rsp), %rax
	addq	(%rsi), %rax
	movq	%rax, %rsi			/* rsi: the symbol */
	movl	PLT_SYM_FID(%rsi), %r10d
	testl	%r10d, %r10d
	jz	10f				/* not recorded */
	cmpw	$1, PLT_SYM_KEEPS_ALL(%rsi)	/* keeps_all, not keeps_ret */
	jne	10f
	cmpb	$0, PLT_SYM_CATCHES(%rsi)
	jne	10f
	movq	fdr__plt_args_on@GOTPCREL(%rip), %rax
	cmpb	$0, (%rax)
	jne	10f
	movq	ENTRY_SLOT(%rsp), %rdx		/* the caller's return address */
	movq	fdr__plt_own_lo@GOTPCREL(%rip), %rax
	movq	%rdx, %rcx
	subq	(%rax), %rcx
	movq	fdr__plt_own_len@GOTPCREL(%rip), %rax
	cmpq	(%rax), %rcx
	jb	10f				/* fdr's own call */
	leaq	fdr__plt_return(%rip), %rax
	cmpq	%rax, %rdx
	je	10f				/* a hooked slot: a tail call */
	leaq	fdr__patch_return(%rip), %rax
	cmpq	%rax, %rdx
	je	10f
	movq	fdr__plt_shadow@gottpoff(%rip), %rcx
	cmpl	$0, SH(SHADOW_BUSY)
	jne	10f				/* fdr's own work */
	movl	SH(SHADOW_DEPTH), %eax
	cmpl	$SHADOW_MAX, %eax
	jae	10f
	testl	%eax, %eax
	jz	11f
	shlq	$SHADOW_E_SHIFT, %rax
	leaq	ENTRY_SLOT(%rsp), %rdx
	cmpq	%rdx, TOP(SHADOW_E_SLOT)
	jbe	10f				/* a frame to close */
11:	movq	FDR_ASM_THREAD@gottpoff(%rip), %r11
	FAST_FN 0, SHADOW_PUSH_CALL
10:	POP_ENTRY_REGS				/* declined: the general path */
	SAVE_ALL
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

.macro PUSH_EXIT_REGS
	push	%rax
	push	%rdx
	push	%rcx
	push	%r10
	push	%r11
.endm

.macro POP_EXIT_REGS
	pop	%r11
	pop	%r10
	pop	%rcx
	pop	%rdx
	pop	%rax
.endm

/* PUSH_EXIT_REGS's frame: the freed return slot */
#define EXIT_SLOT	40

/*
 * FAST_FN's end at a return, the Exit written (or its Enter erased): pop
 * the shadow entry, its real return address into the freed slot, and
 * return there.  fdr__plt_exit_regs's steps, in its order.
 */
.macro SHADOW_POP_RETURN
	movl	SH(SHADOW_DEPTH), %eax
	movq	%rax, %rdx
	shlq	$SHADOW_E_SHIFT, %rax
	movq	TOP(SHADOW_E_RET), %r10		/* before the pop: a signal handler's call reuses the entry */
	movq	%r10, EXIT_SLOT(%rsp)
	decl	%edx
	movl	%edx, SH(SHADOW_DEPTH)
	POP_EXIT_REGS
	ret				/* pops the caller's call */
.endm

/* A patched function returned here; rsp is its caller's after the return. */
	.globl	fdr__patch_return
	.hidden	fdr__patch_return
	.type	fdr__patch_return, @function
fdr__patch_return:
	lea	-8(%rsp), %rsp		/* the freed return slot, for the real one */
	PUSH_EXIT_REGS
	movq	fdr__plt_args_on@GOTPCREL(%rip), %rax
	cmpb	$0, (%rax)
	jne	10f
	movq	fdr__plt_shadow@gottpoff(%rip), %rcx
	movl	SH(SHADOW_DEPTH), %eax
	testl	%eax, %eax
	jz	10f
	shlq	$SHADOW_E_SHIFT, %rax
	leaq	EXIT_SLOT(%rsp), %rdx
	cmpq	%rdx, TOP(SHADOW_E_SLOT)
	jne	10f			/* a frame a longjmp left above it */
	movl	TOP(SHADOW_E_FID), %r10d
	movq	FDR_ASM_THREAD@gottpoff(%rip), %r11
	FAST_FN 1, SHADOW_POP_RETURN
10:	POP_EXIT_REGS			/* declined: the general path */
	SAVE_ALL
	lea	16(%rbp), %rdi		/* the caller's rsp after the return */
	call	fdr__plt_exit
	mov	%rax, 8(%rbp)
	RESTORE_ALL
	ret				/* pops the caller's call */
	.size	fdr__patch_return, .-fdr__patch_return

	.section .note.GNU-stack,"",@progbits
