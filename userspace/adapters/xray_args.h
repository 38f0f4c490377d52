/* SPDX-License-Identifier: MIT */
/*
 * xray_args.h - arguments and return values of chosen functions
 * (`fdr record -A/-R`): $FDR_XRAY_ARGS, set by fdr record, lists them in
 * a compiled form the spec language of fdr(1) was already checked into:
 *
 *   FID:ARGS:RET[;FID:ARGS:RET...]
 *   ARGS  comma-separated, each a class letter and a register number:
 *         iN  the N-th integer argument register (1-6: rdi ... r9)
 *         fN  the N-th floating-point one (1-8: xmm0 ... xmm7)
 *         sN  the N-th integer one, a pointer to a string to copy
 *   RET   empty, i (rax), f (xmm0) or s (rax, a string)
 *
 * The sleds of these functions call trampolines of their own
 * (xray_tramp_x86_64.S) that save the registers above and call the
 * handlers below - the entry's integer and float registers first through
 * fdr__xray_try_args (xray_fast.c), with no more saved; the exit sleds
 * only of functions with a return value to log.  Every other sled keeps
 * the lean trampolines.
 * Documentation/format.md §2 has the records written.
 */
#ifndef FDR_XRAY_ARGS_H
#define FDR_XRAY_ARGS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "fdr.h"

#include "xray_abi.h"

/* What the args trampolines pass: the argument registers, rax, and the
 * low 64 bits of xmm0-7, in this order. */
enum { FDR_XREG_RAX = 6, FDR_XREG_XMM0 = 7, FDR_XREG_NR = 15 };

struct fdr__xray_arg_reg {
	char cls;		/* 'i', 'f' or 's' */
	uint8_t slot;		/* index into the trampoline's regs */
};

struct fdr__xray_fn_spec {
	int32_t fid;
	uint8_t n;
	bool has_str;		/* an 's' argument: the general path */
	char ret;		/* 0, 'i', 'f' or 's' */
	struct fdr__xray_arg_reg arg[FDR_ENTER_ARGS_MAX];
};

/* The specs, and by function id (1 to fdr__xray_args_max) the one of
 * each: written once, before the sleds are retargeted, then only read. */
extern struct fdr__xray_fn_spec **fdr__xray_args_by_fid;
extern int32_t fdr__xray_args_max;

/* fid's spec, or NULL: from the general path and from xray_fast.c (so no
 * vector register may be touched here). */
static inline __attribute__((always_inline)) const struct fdr__xray_fn_spec *
fdr__xray_args_find(int32_t fid)
{
	return fid > 0 && fid <= fdr__xray_args_max ? fdr__xray_args_by_fid[fid] : NULL;
}

/* Parse $FDR_XRAY_ARGS (NULL or "": none); 0, or -EINVAL after a message. */
int fdr__xray_args_load(const char *env);
/* Does this sled (XRayEntryType kind) of fid take an args trampoline? */
bool fdr__xray_args_wants(int32_t fid, uint8_t kind);

/* The entry's first try (xray_fast.c): true if written. */
bool fdr__xray_try_args(int32_t fid, const uint64_t *regs);
/* The handlers the args trampolines call. */
void fdr__xray_args_entry(int32_t fid, enum fdr_xray_entry_type type, const uint64_t *regs);
void fdr__xray_args_exit(int32_t fid, enum fdr_xray_entry_type type, const uint64_t *regs);

#endif /* FDR_XRAY_ARGS_H */
