/* SPDX-License-Identifier: MIT */
/*
 * xray_args.h - arguments and return values of chosen functions
 * (`fdr record -A/-R`): $FDR_XRAY_ARGS, set by fdr record, lists them in
 * a compiled form the spec language of fdr(1) was already checked into:
 *
 *   ENTRY[;ENTRY...]   ENTRY: FID:ARGS:RET or =NAME:ARGS:RET
 *   FID   an id of PROG's map (object 0)
 *   NAME  a symbol-table name: the function of that name in each shared
 *         library whose sleds the mode patches (xray_dso.h)
 *   ARGS  comma-separated, each a class letter and a number:
 *         iN  the N-th integer argument (1-6: rdi ... r9; 7-16: the
 *             stack slots at entry, [rsp+8] ... as uftrace numbers them)
 *         fN  the N-th floating-point one (1-8: xmm0 ... xmm7; 9-16:
 *             the stack slots [rsp+8] ...)
 *         sN  as iN, a pointer to a string to copy
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

#include "args_regs.h"
#include "fdr_xray_ids.h"
#include "xray_abi.h"

/* The specs of one object's functions, by n of its ids (object << 24 |
 * n; PROG is object 0): each entry is written before the sleds that read
 * it are patched, then only read; the table is published with release
 * order and never freed (a thread may be reading it). */
struct fdr__xray_args_table {
	int32_t max;		/* spec[1 ... max] */
	const struct fdr__xray_fn_spec *spec[];
};
extern struct fdr__xray_args_table *fdr__xray_args_tables[FDR_XRAY_DSO_MAX + 1];

/* fid's spec, or NULL: from the general path and from xray_fast.c (so no
 * vector register may be touched here). */
static inline __attribute__((always_inline)) const struct fdr__xray_fn_spec *
fdr__xray_args_find(int32_t fid)
{
	uint32_t obj = (uint32_t)fid >> FDR_XRAY_DSO_SHIFT;
	int32_t n = fid & ((1 << FDR_XRAY_DSO_SHIFT) - 1);
	const struct fdr__xray_args_table *t;

	if (obj > FDR_XRAY_DSO_MAX)
		return NULL;
	t = __atomic_load_n(&fdr__xray_args_tables[obj], __ATOMIC_ACQUIRE);
	return t && n > 0 && n <= t->max ? t->spec[n] : NULL;
}

/* Parse $FDR_XRAY_ARGS (NULL or "": none); 0, or -EINVAL after a message. */
int fdr__xray_args_load(const char *env);
/* The spec of the library function named name (a =NAME entry), or NULL. */
const struct fdr__xray_fn_spec *fdr__xray_args_named(const char *name);
/* Has $FDR_XRAY_ARGS any =NAME entry (the DSO patcher needs names)? */
bool fdr__xray_args_any_named(void);
/* A table for object id with room for functions 1 ... max, published
 * (empty); NULL when out of memory. */
struct fdr__xray_args_table *fdr__xray_args_table_new(int id, int32_t max);
/* Does this sled (XRayEntryType kind) of fid take an args trampoline? */
bool fdr__xray_args_wants(int32_t fid, uint8_t kind);

/* The entry's first try (xray_fast.c): true if written.  Called from
 * the trampoline only, which saves nothing around it (clang wants the
 * attribute on every declaration). */
__attribute__((no_caller_saved_registers))
bool fdr__xray_try_args(int32_t fid, const uint64_t *regs);
/* The handlers the args trampolines call. */
void fdr__xray_args_entry(int32_t fid, enum fdr_xray_entry_type type, const uint64_t *regs);
void fdr__xray_args_exit(int32_t fid, enum fdr_xray_entry_type type, const uint64_t *regs);

#endif /* FDR_XRAY_ARGS_H */
