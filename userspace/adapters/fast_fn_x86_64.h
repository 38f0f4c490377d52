/* SPDX-License-Identifier: MIT */
/*
 * fast_fn_x86_64.h - FAST_FN, the common case of a function record
 * (fdr__fast_fn() of <fdr_inline.h>) in assembly, for the trampolines
 * that must keep every register: XRay's entry and exit sleds
 * (xray_tramp_x86_64.S) and -P's patched functions
 * (patch_tramp_x86_64.S).  It needs three registers where the C fast
 * path compiled no_caller_saved_registers saves seven, and the
 * trampoline's pushes and pops of those were most of the difference on
 * an Intel Xeon (bench/patch/README.md, "The common case in assembly").
 * Included by .S files only.
 *
 * The includer defines TLS(field) first: the operand of a field of this
 * thread's writer (fdr_thread_asm.h) - local-exec in an executable,
 * %fs:field(%reg) with reg its initial-exec offset in a shared object.
 */
#ifndef FDR_FAST_FN_X86_64_H
#define FDR_FAST_FN_X86_64_H

#include "fdr_thread_asm.h"

/* The record's end, pos in rdx: publish it (fdr__publish_at()) and leave
 * the re-entry guard.  Clobbers rax. */
.macro FAST_PUBLISH
	movq	TLS(FDR_ASM_T_DESC), %rax
	movq	%rdx, FDR_ASM_D_EXTENTS(%rax)	/* fdr__publish_at() */
	movb	$0, TLS(FDR_ASM_T_BUSY)
.endm

/*
 * Inside FAST_FN 1, the delta in rdx: fdr__undoable() and what
 * fdr__fast_fn() does then.  An Exit within the threshold of the last
 * undoable Enter erases that Enter (fdr__erase_enter()) and ends with
 * done; the walk back over a tail-call chain (the last undoable Enter
 * with TailExits before it) is C's: to 7 (declined).  Anything else falls
 * through, the delta in rdx again.
 */
.macro ERASE_IF_UNDOABLE done
	cmpl	$0, TLS(FDR_ASM_T_UNDO)
	je	5f
	movq	%rax, %rdx
	subq	TLS(FDR_ASM_T_LAST_ENTRY), %rdx
	cmpq	TLS(FDR_ASM_T_THRESHOLD), %rdx
	jae	4f
	cmpl	$1, TLS(FDR_ASM_T_UNDO)
	jne	3f
	cmpl	$0, TLS(FDR_ASM_T_UNDO + 4)	/* undo_tails */
	jne	7f
3:
	movq	TLS(FDR_ASM_T_POS), %rdx
	subq	$FDR_ASM_FUNCTION_SIZE, %rdx	/* rdx: pos of the Enter */
	movq	%rdx, TLS(FDR_ASM_T_POS)
	movq	TLS(FDR_ASM_T_BUF), %rax
	movl	4(%rax,%rdx), %eax		/* rax: the Enter's delta */
	subq	%rax, TLS(FDR_ASM_T_LATEST_TSC)
	decl	TLS(FDR_ASM_T_UNDO)
	jz	6f
	subq	%rax, TLS(FDR_ASM_T_LAST_ENTRY)	/* the Enter before it */
	jmp	9f
6:
	movq	$0, TLS(FDR_ASM_T_LAST_ENTRY)
9:
	FAST_PUBLISH
	\done
4:
	movq	%rax, %rdx
	subq	TLS(FDR_ASM_T_LATEST_TSC), %rdx	/* the delta again */
5:
.endm

/*
 * FAST_FN kind, done: the record of an Enter (kind 0) or an Exit (kind
 * 1) of function r10d in the common case, as fdr__fast_fn() writes it -
 * same checks in the same order of effect, same bytes - in rax and rdx,
 * which the trampoline saved, and r10, which it clobbers.  When the
 * record is written (or an Enter erased) it ends with done, a macro that
 * must not fall through (rax, rdx, r10 and the flags spent, every other
 * register kept); otherwise it falls through with every register as it
 * came but rax, rdx and the flags (r10 too), and nothing written: busy,
 * not this region's buffer, no room, another CPU, a delta that does not
 * fit, or an Exit that would walk back over a tail-call chain - what
 * fdr__fast_fn() declines too, so the general path comes next.  x86
 * keeps stores in program order, which is all the busy guard and the
 * release store of the extents need here.  Local labels 3-9 are its own.
 */
.macro FAST_FN kind, done
	rdtsc
	shlq	$32, %rdx
	orq	%rdx, %rax			/* rax: the TSC */
	cmpb	$0, TLS(FDR_ASM_T_BUSY)
	jne	8f
	movb	$1, TLS(FDR_ASM_T_BUSY)
	movq	fdr__current@GOTPCREL(%rip), %rdx
	movq	(%rdx), %rdx
	cmpq	%rdx, TLS(FDR_ASM_T_REGION)
	jne	7f
	movq	TLS(FDR_ASM_T_CTL), %rdx
	cmpl	$FDR_ASM_STATE_INITIALIZED, FDR_ASM_C_STATE(%rdx)
	jne	7f
	movl	FDR_ASM_C_GENERATION(%rdx), %edx
	cmpl	%edx, TLS(FDR_ASM_T_GENERATION)
	jne	7f
	movq	TLS(FDR_ASM_T_POS), %rdx
	addq	$FDR_ASM_FAST_NEED, %rdx
	cmpq	TLS(FDR_ASM_T_FAST_SIZE), %rdx
	ja	7f
	movq	TLS(FDR_ASM_T_CPU_OFFSET), %rdx
	movl	%fs:(%rdx), %edx
	cmpl	TLS(FDR_ASM_T_CPU), %edx
	jne	7f
	movq	%rax, %rdx
	subq	TLS(FDR_ASM_T_LATEST_TSC), %rdx	/* rdx: the delta */
	cmpq	$FDR_ASM_DELTA_MAX, %rdx
	ja	7f
	.if \kind
	ERASE_IF_UNDOABLE \done
	.endif
	/* Nothing declines from here: r10 and rax may go. */
	.if \kind
	movq	$0, TLS(FDR_ASM_T_UNDO)	/* fdr__undo_note_exit() */
	.else
	incl	TLS(FDR_ASM_T_UNDO)	/* fdr__undo_note_enter() */
	movq	%rax, TLS(FDR_ASM_T_LAST_ENTRY)
	.endif
	movq	%rax, TLS(FDR_ASM_T_LATEST_TSC)
	shll	$FDR_ASM_FN_ID_SHIFT, %r10d	/* FDR_FN_WORD0(kind, fid) */
	.if \kind
	orl	$FDR_ASM_FN_EXIT_BITS, %r10d
	.endif
	shlq	$32, %rdx
	orq	%rdx, %r10			/* r10: the record, word 0 and delta */
	movq	TLS(FDR_ASM_T_POS), %rdx
	movq	TLS(FDR_ASM_T_BUF), %rax
	movq	%r10, (%rax,%rdx)
	addq	$FDR_ASM_FUNCTION_SIZE, %rdx
	movq	%rdx, TLS(FDR_ASM_T_POS)
	FAST_PUBLISH
	\done
7:
	movb	$0, TLS(FDR_ASM_T_BUSY)
8:
.endm

#endif /* FDR_FAST_FN_X86_64_H */
