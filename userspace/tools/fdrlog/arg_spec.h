/* SPDX-License-Identifier: MIT */
/*
 * arg_spec.h - the argument spec language of `fdr record -A/-R`, as
 * uftrace spells it (Documentation/man/fdr.1, -A; Documentation/format.md §2):
 *
 *   ITEM[,ITEM...]   ITEM: argN | fpargN | retval, then /FMT[SIZE]
 *   FMT   d or i (signed), u (unsigned), x (hex), s (string), c (char),
 *         f (floating point), p (pointer); none: uftrace's auto format
 *   SIZE  8, 16, 32 or 64 bits (default 64; f: 64 a double, 32 a float)
 *
 * argN is the N-th integer argument register (1-6), fpargN the N-th
 * floating-point one (1-8); argN/f means fpargN.  Past the registers,
 * as uftrace numbers them on x86-64: arg7 and fparg9 are the first stack
 * slot at the entry ([rsp+8]), arg8 and fparg10 the second, ... up to
 * ARG_SPEC_REG_MAX.  The one grammar:
 * fdr record checks specs with it and compiles them for the XRay mode
 * (xray_args.h), DIR/info keeps them as given, and the readers format
 * the logged values with it.
 */
#ifndef FDRLOG_ARG_SPEC_H
#define FDRLOG_ARG_SPEC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <fdr.h>
#include <fdr_reader.h>

struct out_buffer;

/* The largest N of argN and fpargN: stack slots 1-10 (ints) and 1-8. */
#define ARG_SPEC_REG_MAX	16

struct arg_item {
	char fmt;		/* 0 (auto), 'd', 'u', 'x', 's', 'c', 'f', 'p' */
	uint8_t bits;		/* 8, 16, 32, 64 */
	uint8_t reg;		/* 1-based, in its class */
	bool fp;		/* a floating-point register */
};

struct arg_spec {
	unsigned n;		/* arguments, in the order logged */
	struct arg_item arg[FDR_ENTER_ARGS_MAX];
	bool has_ret;
	struct arg_item ret;
};

/* Add the items of text ("arg1,arg2/s,retval/i32") to s; 0, or -1 with a
 * sentence naming the bad item in err. */
int arg_spec_parse(struct arg_spec *s, const char *text, char *err, size_t errlen);
/* s as text arg_spec_parse reads back; 0, or -1 if out is too small. */
int arg_spec_text(const struct arg_spec *s, char *out, size_t outsz);
/* The XRay mode's form for fid (xray_args.h); 0, or -1 if too small. */
int arg_spec_compile(const struct arg_spec *s, int32_t fid, char *out, size_t outsz);
/* ... and for the library functions of symbol-table name name. */
int arg_spec_compile_named(const struct arg_spec *s, const char *name, char *out, size_t outsz);

/* The specs of a recording, by function id (DIR/info's "args" lines). */
struct arg_specs {
	int32_t *fid;
	struct arg_spec *spec;
	size_t n;
};
/* Add s to fid's spec: its arguments after those already there, its
 * return value in place of one; 0, or -1 (out of memory, or more than
 * FDR_ENTER_ARGS_MAX arguments). */
int arg_specs_merge(struct arg_specs *all, int32_t fid, const struct arg_spec *s);
/* Add "FID@ITEMS" (one DIR/info line); 0, -1 if it does not parse. */
int arg_specs_add_line(struct arg_specs *all, const char *line);
const struct arg_spec *arg_specs_find(const struct arg_specs *all, int32_t fid);
void arg_specs_free(struct arg_specs *all);

/*
 * "(a, b)" and " = r" of one call as uftrace replay shows them: args
 * the CallArguments, strs / ret the call's FDR_ARGS_* payloads (NULL:
 * none); spec NULL: every value in the auto format.  arg_put_ret_value:
 * "r" alone (the Chrome export's "retval").
 */
void arg_put_args(struct out_buffer *o, const struct arg_spec *spec, const uint64_t *args,
		  uint32_t n, const uint8_t *strs, uint32_t strs_size);
void arg_put_ret(struct out_buffer *o, const struct arg_spec *spec, const uint8_t *ret,
		 uint32_t ret_size);
void arg_put_ret_value(struct out_buffer *o, const struct arg_spec *spec, const uint8_t *ret,
		       uint32_t ret_size);

/* What a custom event's payload p (size bytes) is to -A/-R: the strings
 * of a call's arguments (FDR_ARGS_STR_MAGIC, at least the magic: a NULL's
 * record is the magic and one header), its return value
 * (FDR_ARGS_RET_MAGIC and a u64), or neither (format.md §2). */
enum arg_record { ARG_RECORD_NONE, ARG_RECORD_STR, ARG_RECORD_RET };
enum arg_record arg_record_kind(const uint8_t *p, uint32_t size);

#endif
