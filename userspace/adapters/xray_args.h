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
 * handlers below; every other sled keeps the lean trampolines.
 * Documentation/format.md, "Arguments and return values", has the
 * records written.
 */
#ifndef FDR_XRAY_ARGS_H
#define FDR_XRAY_ARGS_H

#include <stdbool.h>
#include <stdint.h>

#include "xray_abi.h"

/* What the args trampolines pass: the argument registers, rax, and the
 * low 64 bits of xmm0-7, in this order. */
enum { FDR_XREG_RAX = 6, FDR_XREG_XMM0 = 7, FDR_XREG_NR = 15 };

/* Parse $FDR_XRAY_ARGS (NULL or "": none); 0, or -EINVAL after a message. */
int fdr__xray_args_load(const char *env);
/* Does fid have a spec?  Its sleds then take the args trampolines. */
bool fdr__xray_args_has(int32_t fid);

/* The handlers the args trampolines call. */
void fdr__xray_args_entry(int32_t fid, enum fdr_xray_entry_type type, const uint64_t *regs);
void fdr__xray_args_exit(int32_t fid, enum fdr_xray_entry_type type, const uint64_t *regs);

#endif /* FDR_XRAY_ARGS_H */
