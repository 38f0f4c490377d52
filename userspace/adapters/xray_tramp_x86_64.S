/* SPDX-License-Identifier: MIT */
/*
 * xray_tramp_x86_64.S - lean trampolines for the "fdr" mode's sleds.
 *
 * compiler-rt's trampolines (__xray_FunctionEntry/Exit/TailExit) save
 * the flags (pushf/popf), all 15 GPRs and 8 XMM registers, then call
 * the handler through a pointer, a large share of the cost of recording
 * a call (bench/xray measures it).  These keep only what the ABI makes
 * live at the sled:
 *   entry and tail-call sleds: the argument registers rdi, rsi, rdx,
 *     rcx, r8, r9, rax (vector count of varargs) and xmm0-7;
 *   exit sleds (in place of `ret`): the return registers rax, rdx,
 *     xmm0, xmm1.
 * Flags are dead at all three points (no caller relies on flags across
 * a call or return; DF stays clear), and r10 (the function id the sled
 * loaded) and r11 are scratch.
 *
 * When fdr__xray_fast_on is 0 (the mode is not running) each trampoline
 * jumps to compiler-rt's, with the stack and r10 as the sled left them,
 * so XRay behaves exactly as if the sled called it directly.
 *
 * Entry, tail-call and exit sleds first call the common case of the
 * record (xray_fast.c), which saves the registers it uses itself and
 * touches no XMM register, keeping only the registers of that call; when
 * it wrote nothing (a new buffer, a new CPU, a tail-call chain to
 * rewind), the trampoline saves everything above and calls the general
 * path, fdr__xray_fast_event(fid, XRayEntryType), the mode's ordinary arg0
 * handler; arg-logging entry sleds (xray_log_args(1)) call
 * its arg1 handler, fdr__xray_fast_arg1(fid, type, first argument).
 */
	.text

/* Entry and tail-call sleds `call` here: stack = return into the sled's
 * function, so rsp = 0 mod 16 on arrival.  8 pushes keep it 0 mod 16,
 * 128 bytes of XMM too, and the call to C is aligned. */
.macro ENTRY_LIKE name, type, xray, try=none, handler=fdr__xray_fast_event, witharg=0
	.globl	\name
	.type	\name,@function
	.p2align 4
\name:
	.cfi_startproc
	cmpb	$0, fdr__xray_fast_on(%rip)
	je	1f
	.ifnc \try,none
	/* The common case: \try saves what it uses, so only its argument
	 * (rdi) and result (rax) registers are kept; 2 pushes keep the call
	 * aligned.  Flags stay from the test across the pops. */
	pushq	%rdi
	.cfi_adjust_cfa_offset 8
	pushq	%rax
	.cfi_adjust_cfa_offset 8
	movl	%r10d, %edi
	call	\try
	testb	%al, %al
	popq	%rax
	.cfi_adjust_cfa_offset -8
	popq	%rdi
	.cfi_adjust_cfa_offset -8
	jz	2f
	ret
2:
	.endif
	pushq	%rdi
	.cfi_adjust_cfa_offset 8
	pushq	%rsi
	.cfi_adjust_cfa_offset 8
	pushq	%rdx
	.cfi_adjust_cfa_offset 8
	pushq	%rcx
	.cfi_adjust_cfa_offset 8
	pushq	%r8
	.cfi_adjust_cfa_offset 8
	pushq	%r9
	.cfi_adjust_cfa_offset 8
	pushq	%rax
	.cfi_adjust_cfa_offset 8
	pushq	%r10
	.cfi_adjust_cfa_offset 8
	subq	$128, %rsp
	.cfi_adjust_cfa_offset 128
	movdqu	%xmm0, 0(%rsp)
	movdqu	%xmm1, 16(%rsp)
	movdqu	%xmm2, 32(%rsp)
	movdqu	%xmm3, 48(%rsp)
	movdqu	%xmm4, 64(%rsp)
	movdqu	%xmm5, 80(%rsp)
	movdqu	%xmm6, 96(%rsp)
	movdqu	%xmm7, 112(%rsp)
	.if \witharg
	movq	%rdi, %rdx		/* the logged argument: the first one */
	.endif
	movl	%r10d, %edi
	movl	$\type, %esi
	call	\handler
	movdqu	0(%rsp), %xmm0
	movdqu	16(%rsp), %xmm1
	movdqu	32(%rsp), %xmm2
	movdqu	48(%rsp), %xmm3
	movdqu	64(%rsp), %xmm4
	movdqu	80(%rsp), %xmm5
	movdqu	96(%rsp), %xmm6
	movdqu	112(%rsp), %xmm7
	addq	$128, %rsp
	.cfi_adjust_cfa_offset -128
	popq	%r10
	.cfi_adjust_cfa_offset -8
	popq	%rax
	.cfi_adjust_cfa_offset -8
	popq	%r9
	.cfi_adjust_cfa_offset -8
	popq	%r8
	.cfi_adjust_cfa_offset -8
	popq	%rcx
	.cfi_adjust_cfa_offset -8
	popq	%rdx
	.cfi_adjust_cfa_offset -8
	popq	%rsi
	.cfi_adjust_cfa_offset -8
	popq	%rdi
	.cfi_adjust_cfa_offset -8
	ret
1:
	jmp	\xray
	.cfi_endproc
	.size	\name, .-\name
.endm

	ENTRY_LIKE fdr__xray_entry_tramp, 0, __xray_FunctionEntry, fdr__xray_try_enter
	ENTRY_LIKE fdr__xray_tail_tramp, 2, __xray_FunctionTailExit, fdr__xray_try_tail
	ENTRY_LIKE fdr__xray_arg1_tramp, 3, __xray_ArgLoggerEntry, none, fdr__xray_fast_arg1, 1

/* Exit sleds `jmp` here in place of the function's `ret`: stack = the
 * return into its caller, rsp = 8 mod 16.  3 pushes and 32 bytes of
 * XMM make it 0 mod 16 for the call; `ret` then returns to the caller. */
	.globl	fdr__xray_exit_tramp
	.type	fdr__xray_exit_tramp,@function
	.p2align 4
fdr__xray_exit_tramp:
	.cfi_startproc
	cmpb	$0, fdr__xray_fast_on(%rip)
	je	1f
	/* The common case (see ENTRY_LIKE): rdi is dead at a return, rax
	 * holds the result; one push aligns the call. */
	pushq	%rax
	.cfi_adjust_cfa_offset 8
	movl	%r10d, %edi
	call	fdr__xray_try_exit
	testb	%al, %al
	popq	%rax
	.cfi_adjust_cfa_offset -8
	jz	2f
	ret
2:
	pushq	%rax
	.cfi_adjust_cfa_offset 8
	pushq	%rdx
	.cfi_adjust_cfa_offset 8
	pushq	%r10
	.cfi_adjust_cfa_offset 8
	subq	$32, %rsp
	.cfi_adjust_cfa_offset 32
	movdqu	%xmm0, 0(%rsp)
	movdqu	%xmm1, 16(%rsp)
	movl	%r10d, %edi
	movl	$1, %esi
	call	fdr__xray_fast_event
	movdqu	0(%rsp), %xmm0
	movdqu	16(%rsp), %xmm1
	addq	$32, %rsp
	.cfi_adjust_cfa_offset -32
	popq	%r10
	.cfi_adjust_cfa_offset -8
	popq	%rdx
	.cfi_adjust_cfa_offset -8
	popq	%rax
	.cfi_adjust_cfa_offset -8
	ret
1:
	jmp	__xray_FunctionExit
	.cfi_endproc
	.size	fdr__xray_exit_tramp, .-fdr__xray_exit_tramp

	.section .note.GNU-stack,"",@progbits
