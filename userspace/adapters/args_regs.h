/* SPDX-License-Identifier: MIT */
/*
 * args_regs.h - one function's compiled argument spec (`fdr record
 * -A/-R`), as the XRay mode (xray_args.h) and library-call tracing
 * (plt_args.c) read it: "ARGS:RET", ARGS comma-separated class letters
 * and numbers (iN, fN, sN), RET empty, i, f or s (xray_args.h has the
 * whole language).
 */
#ifndef FDR_ARGS_REGS_H
#define FDR_ARGS_REGS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "fdr.h"
#include <linux/fdr_log.h>

/* What the args trampolines pass: the argument registers, rax, and the
 * low 64 bits of xmm0-7, in this order; at the entry, FDR_XREG_STACK
 * words on, the stack as the function found it: its return address,
 * then the arguments passed on the stack. */
enum { FDR_XREG_RAX = 6, FDR_XREG_XMM0 = 7, FDR_XREG_NR = 15, FDR_XREG_STACK = 17 };
/* The stack slots an argument may name: integer arguments 7-16,
 * floating-point 9-16 (uftrace's argN/fpargN past the registers). */
#define FDR_XARG_INT_MAX	16
#define FDR_XARG_FP_MAX		16

struct fdr__xray_arg_reg {
	char cls;		/* 'i', 'f' or 's' */
	uint8_t slot;		/* index into the trampoline's regs (stack
				 * slots: FDR_XREG_STACK + 1 ...) */
};

struct fdr__xray_fn_spec {
	int32_t fid;
	uint8_t n;
	bool has_str;		/* an 's' argument: the general path */
	char ret;		/* 0, 'i', 'f' or 's' */
	struct fdr__xray_arg_reg arg[FDR_ENTER_ARGS_MAX];
};

/* "ARGS:RET" in [p, end) into f (zeroed); 0 or -1. */
int fdr__args_parse_regs(struct fdr__xray_fn_spec *f, const char *p, const char *end);

/* A "=NAME:ARGS:RET" entry: a function named, not numbered (a library's,
 * whose ids are given at run time). */
struct fdr__args_named {
	const char *name;	/* in the environment: NUL-less, len bytes */
	size_t len;
	struct fdr__xray_fn_spec spec;
};
/* "=NAME:ARGS:RET" in [p, end) into ns; 0 or -1. */
int fdr__args_parse_named(struct fdr__args_named *ns, const char *p, const char *end);
/* The spec of v[0..n) named name (NULL: none). */
const struct fdr__xray_fn_spec *fdr__args_named_find(const struct fdr__args_named *v, size_t n,
						     const char *name);

/* Room for one string's record: its header and up to FDR_ARGS_STR_MAX
 * bytes (and the one read past, to see a cut). */
#define FDR_ARGS_STR_ROOM	(sizeof(struct fdr_args_str) + FDR_ARGS_STR_MAX + 1)
/* Up to FDR_ARGS_STR_MAX bytes of the string at addr, as one
 * fdr_args_str and its bytes at out; returns the bytes written. */
size_t fdr__args_copy_string(uint8_t *out, uint8_t index, uint64_t addr);

#endif /* FDR_ARGS_REGS_H */
