/* SPDX-License-Identifier: MIT */
/*
 * fdr_thread_asm.h - what assembly needs of <fdr_inline.h>'s per-thread
 * writer and of the region it writes: byte offsets and constants, as
 * plain numbers a .S file can use.
 *
 * FAST_FN (userspace/adapters/fast_fn_x86_64.h), the common case of the
 * XRay and -P trampolines, writes a record in the few registers they
 * save, where the C fast path needs seven; it follows fdr__fast_fn() of
 * <fdr_inline.h> step by step.  xray_fast.c
 * checks every number here against the C definitions at compile time, so
 * a change of struct fdr_thread (which also bumps FDR__THREAD_SYMBOL) or
 * of the ABI fails the build until this file follows.
 */
#ifndef FDR_THREAD_ASM_H
#define FDR_THREAD_ASM_H

/* The writer's symbol, FDR__THREAD_SYMBOL's name: when a layout change
 * bumps that, this stale name is an undefined symbol and the link fails. */
#define FDR_ASM_THREAD		fdr__thread_layout_2

/* struct fdr_thread */
#define FDR_ASM_T_CTL		0
#define FDR_ASM_T_REGION	8
#define FDR_ASM_T_DESC		16
#define FDR_ASM_T_BUF		24
#define FDR_ASM_T_FAST_SIZE	40
#define FDR_ASM_T_POS		48
#define FDR_ASM_T_LATEST_TSC	56
#define FDR_ASM_T_LAST_ENTRY	64
#define FDR_ASM_T_THRESHOLD	80
#define FDR_ASM_T_CPU_OFFSET	88
#define FDR_ASM_T_GENERATION	96
#define FDR_ASM_T_CPU		100
#define FDR_ASM_T_UNDO		104	/* undo_enters, then undo_tails */
#define FDR_ASM_T_BUSY		116

/* struct fdr_control, struct fdr_buffer_desc */
#define FDR_ASM_C_GENERATION	8
#define FDR_ASM_C_STATE		64
#define FDR_ASM_D_EXTENTS	0
#define FDR_ASM_STATE_INITIALIZED 2

/* Records: the room fdr__fast_fn() asks for, the kinds' word-0 bits. */
#define FDR_ASM_FAST_NEED	24	/* FDR_METADATA_SIZE + FDR_FUNCTION_SIZE */
#define FDR_ASM_FUNCTION_SIZE	8
#define FDR_ASM_FN_ID_SHIFT	4
#define FDR_ASM_FN_EXIT_BITS	2	/* FDR_FN_WORD0(FDR_FN_EXIT, 0) */
#define FDR_ASM_DELTA_MAX	0x7fffffff	/* INT32_MAX */

#ifndef __ASSEMBLER__
/* C's check of a number above (or of another .S header's) against what
 * C says it is: each file that defines the structures asserts them. */
#define FDR_ASM_IS(asm_value, c_value) \
	_Static_assert((asm_value) == (c_value), #asm_value " is " #c_value)
#endif

#endif /* FDR_THREAD_ASM_H */
