/* SPDX-License-Identifier: MIT */
/*
 * xray_tramp_x86_64.S - lean trampolines for the "fdr" mode's sleds, and
 * the shims that let compiler-rt's trampolines call the mode's handlers.
 *
 * A sled is not a call as far as the compiler is concerned: it keeps
 * values live across it in any register - r11 holds an indirect tail
 * call's target across a tail-exit sled, a preserve_most function's
 * caller keeps everything live across its exit sled, the code around a
 * custom-event sled keeps anything anywhere.  So every path through
 * these trampolines preserves every register but rsp and r10 (which the
 * sled itself loads with the function id): the general-purpose
 * registers, the flags, MXCSR and every vector register (the x87
 * stack is left alone: no code on these paths uses long double).
 *
 * The common case costs almost nothing for that.  For entry and exit
 * sleds, FAST_FN (fast_fn_x86_64.h) writes the record in rax and rdx,
 * pushed and popped, and r10: the steps of fdr__fast_fn() (<fdr_inline.h>) for an
 * Enter or an Exit (erasing the Enter of a call shorter than the
 * threshold), addressing the writer's fields at fixed offsets from %fs
 * (the writer is in the executable, as libfdr-xray.a links libfdr.a:
 * local-exec TLS, no register).  The tail-exit sled calls the record's
 * fast path in C (xray_fast.c), which is no_caller_saved_registers and
 * compiled with -mgeneral-regs-only, so it saves the general registers
 * it uses itself (seven) and touches no vector or x87 register; the
 * trampoline keeps only its argument (rdi) and result (rax) registers.
 * Flags are dead at entry, exit and tail-exit sleds (function
 * boundaries: the callee and the caller see none but DF, which stays
 * clear), so the common case may clobber them.
 *
 * When the fast path wrote nothing (a new buffer, a new CPU, a tail-call
 * chain to rewind, an armed trigger, a drop), the trampoline takes the
 * general path, fdr__xray_fast_event(fid, XRayEntryType) - or for
 * arg-logging sleds fdr__xray_fast_arg1(fid, type, first argument) -
 * ordinary C that may call anything, libc's AVX memcpy included.  Around
 * it GENERAL_CALL saves the flags and every caller-saved general
 * register, and VSTATE_SAVE MXCSR and every vector register the CPU has
 * (xmm0-15, ymm0-15, or zmm0-31 and k0-7; XSAVE where AVX-512 comes
 * without its word masks); xray_xstate.c picks the form.
 *
 * When fdr__xray_fast_on is 0 (the mode is not running) each trampoline
 * jumps to compiler-rt's, with the stack and r10 as the sled left them,
 * so XRay behaves exactly as if the sled called it directly.  compiler-rt's
 * trampolines save the general registers, the flags and xmm0-7 only, then
 * call the installed handler; the mode installs the shims at the end of
 * this file, which save the rest of the vector state around its handlers.
 *
 * Documentation/integrations.md states the stack this takes.
 */
	.text

/* VSTATE_SAVE / VSTATE_RESTORE: vstate_x86_64.h */
#include "vstate_x86_64.h"

/* The frame both forms share: rbp pushed and pointing at itself, the
 * mask slot under it. */
.macro FRAME_ENTER
	pushq	%rbp
	.cfi_adjust_cfa_offset 8
	.cfi_rel_offset %rbp, 0
	movq	%rsp, %rbp
	.cfi_def_cfa_register %rbp
	subq	$8, %rsp
.endm

.macro FRAME_LEAVE cfa_offset
	movq	%rbp, %rsp
	.cfi_def_cfa_register %rsp
	popq	%rbp
	.cfi_restore %rbp
	.cfi_def_cfa_offset \cfa_offset
.endm

/* The caller-saved general registers and the flags, in push order. */
#define GENERAL_SAVED	10
/* Where GENERAL_CALL's frame keeps the sled's rdi (the logged argument):
 * above rbp's own slot, r11, r10, r9 and r8. */
#define SAVED_RDI	(5 * 8)
/* ... and the args trampolines' register block: above all of it. */
#define SAVED_REGS	((1 + GENERAL_SAVED) * 8)

/*
 * The general path of a trampoline whose CFA is rsp + cfa_in: save
 * everything, call handler(fid, type[, the sled's rdi]), restore.
 */
.macro GENERAL_CALL handler, type, cfa_in, witharg=0, withregs=0
	pushfq
	pushq	%rax
	pushq	%rcx
	pushq	%rdx
	pushq	%rsi
	pushq	%rdi
	pushq	%r8
	pushq	%r9
	pushq	%r10
	pushq	%r11
	.cfi_adjust_cfa_offset (GENERAL_SAVED * 8)
	FRAME_ENTER
	VSTATE_SAVE
	.if \witharg
	movq	SAVED_RDI(%rbp), %rdx
	.endif
	.if \withregs
	leaq	SAVED_REGS(%rbp), %rdx
	.endif
	movl	%r10d, %edi
	movl	$\type, %esi
	call	\handler
	VSTATE_RESTORE
	FRAME_LEAVE (\cfa_in + GENERAL_SAVED * 8)
	popq	%r11
	popq	%r10
	popq	%r9
	popq	%r8
	popq	%rdi
	popq	%rsi
	popq	%rdx
	popq	%rcx
	popq	%rax
	popfq
	.cfi_adjust_cfa_offset -(GENERAL_SAVED * 8)
.endm

/* A trampoline's symbol and first test: not recording, to 1f (which
 * jumps to compiler-rt's). */
.macro TRAMP_BEGIN name
	.globl	\name
	.type	\name,@function
	.p2align 4
\name:
	.cfi_startproc
	cmpb	$0, fdr__xray_fast_on(%rip)
	je	1f
.endm

/* A field of this thread's writer (fdr_thread_asm.h), local-exec. */
#define TLS(field)	%fs:FDR_ASM_THREAD@tpoff+field
#include "fast_fn_x86_64.h"

/* FAST_FN's end when it wrote: restore rax and rdx, return to the sled. */
.macro POP_RETURN
	popq	%rdx
	.cfi_adjust_cfa_offset -8
	popq	%rax
	.cfi_adjust_cfa_offset -8
	ret
	.cfi_adjust_cfa_offset 16
.endm

/* FAST_FN (fast_fn_x86_64.h) with rax and rdx saved around it: returns
 * to the sled when the record is written; otherwise falls through with
 * every register as it came and nothing written. */
.macro FAST_FN_SAVED kind
	pushq	%rax
	.cfi_adjust_cfa_offset 8
	pushq	%rdx
	.cfi_adjust_cfa_offset 8
	FAST_FN \kind, POP_RETURN
	popq	%rdx
	.cfi_adjust_cfa_offset -8
	popq	%rax
	.cfi_adjust_cfa_offset -8
.endm

/* Entry, tail-call and arg-logging sleds `call` here: stack = the return
 * into the sled's function.  try: the fast path - FAST_FN's (asm), C's,
 * or none. */
.macro ENTRY_LIKE name, type, xray, try=none, handler=fdr__xray_fast_event, witharg=0
	TRAMP_BEGIN \name
	.ifc \try,asm
	FAST_FN_SAVED 0
	.else
	.ifnc \try,none
	/* 2 pushes keep the call aligned (rsp = 0 mod 16 on arrival). */
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
	.endif
	GENERAL_CALL \handler, \type, 8, \witharg
	ret
1:
	jmp	\xray
	.cfi_endproc
	.size	\name, .-\name
.endm

	ENTRY_LIKE fdr__xray_entry_tramp, 0, __xray_FunctionEntry, asm
	ENTRY_LIKE fdr__xray_tail_tramp, 2, __xray_FunctionTailExit, fdr__xray_try_tail
	ENTRY_LIKE fdr__xray_arg1_tramp, 3, __xray_ArgLoggerEntry, none, fdr__xray_fast_arg1, 1

/* Exit sleds `jmp` here in place of the function's `ret`: stack = the
 * return into its caller, rsp = 8 mod 16; `ret` then returns there. */
	TRAMP_BEGIN fdr__xray_exit_tramp
	FAST_FN_SAVED 1
	GENERAL_CALL fdr__xray_fast_event, 1, 8
	ret
1:
	jmp	__xray_FunctionExit
	.cfi_endproc
	.size	fdr__xray_exit_tramp, .-fdr__xray_exit_tramp

/*
 * The sleds of functions with an -A/-R spec (xray_args.h) call these
 * instead, with a block of the registers that hold arguments and
 * results - rdi, rsi, rdx, rcx, r8, r9, rax, then the low 64 bits of
 * xmm0-7 (FDR_XREG_*) - whose address goes to the handlers.  The entry
 * first tries fdr__xray_try_args (xray_fast.c: no_caller_saved_registers,
 * general registers only), restoring from the block the three registers
 * its call uses; then, as the lean trampolines do, the general path.
 * Entry sleds `call` here (rsp = 0 mod 16 on arrival: a 128-byte block
 * keeps the try's call aligned), exit sleds `jmp` here; either way
 * `ret` leaves as the sled would.
 */
.macro ARGS_BLOCK size
	subq	$\size, %rsp
	.cfi_adjust_cfa_offset \size
	movq	%rdi, 0(%rsp)
	movq	%rsi, 8(%rsp)
	movq	%rdx, 16(%rsp)
	movq	%rcx, 24(%rsp)
	movq	%r8, 32(%rsp)
	movq	%r9, 40(%rsp)
	movq	%rax, 48(%rsp)
	.irp i, 0,1,2,3,4,5,6,7
	movq	%xmm\i, (56 + 8 * \i)(%rsp)
	.endr
.endm

.macro ARGS_TRAMP name, type, xray, handler, size, try=none
	TRAMP_BEGIN \name
	ARGS_BLOCK \size
	.ifnc \try,none
	movl	%r10d, %edi
	movq	%rsp, %rsi
	call	\try
	testb	%al, %al
	movq	0(%rsp), %rdi
	movq	8(%rsp), %rsi
	movq	48(%rsp), %rax
	jz	2f
	addq	$\size, %rsp
	.cfi_adjust_cfa_offset -\size
	ret
	.cfi_adjust_cfa_offset \size
2:
	.endif
	GENERAL_CALL \handler, \type, (8 + \size), 0, 1
	addq	$\size, %rsp
	.cfi_adjust_cfa_offset -\size
	ret
1:
	jmp	\xray
	.cfi_endproc
	.size	\name, .-\name
.endm

	ARGS_TRAMP fdr__xray_args_entry_tramp, 0, __xray_FunctionEntry, fdr__xray_args_entry, 128, fdr__xray_try_args
	ARGS_TRAMP fdr__xray_args_exit_tramp, 1, __xray_FunctionExit, fdr__xray_args_exit, 120

/*
 * The handlers the mode installs in compiler-rt (arg0, arg1, custom
 * event): ABI functions of up to three integer arguments that also keep
 * the vector state, which compiler-rt's trampolines save only in part.
 */
.macro ABI_SHIM name, handler
	.globl	\name
	.type	\name,@function
	.p2align 4
\name:
	.cfi_startproc
	FRAME_ENTER
	pushq	%rdi
	pushq	%rsi
	pushq	%rdx
	VSTATE_SAVE
	movq	-16(%rbp), %rdi
	movq	-24(%rbp), %rsi
	movq	-32(%rbp), %rdx
	call	\handler
	VSTATE_RESTORE
	FRAME_LEAVE 8
	ret
	.cfi_endproc
	.size	\name, .-\name
.endm

	ABI_SHIM fdr__xray_arg0_shim, fdr__xray_fast_event
	ABI_SHIM fdr__xray_arg1_shim, fdr__xray_fast_arg1
	ABI_SHIM fdr__xray_event_shim, fdr__xray_custom_event

	.section .note.GNU-stack,"",@progbits
