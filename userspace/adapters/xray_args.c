// SPDX-License-Identifier: MIT
/*
 * xray_args.c - $FDR_XRAY_ARGS (xray_args.h): which registers of which
 * functions to log, and the handlers that log them.
 *
 * Runs on the general path of the args trampolines (every register
 * saved), so it may call libc.  Strings are read with
 * process_vm_readv() on our own pid: a bad pointer in an argument is a
 * fact to record (FDR_ARGS_STR_FAULT), not a crash of the program.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fdr.h"
#include <linux/fdr.h>
#include <linux/fdr_log.h>
#include "xray_args.h"

struct fdr__xray_args_table *fdr__xray_args_tables[FDR_XRAY_DSO_MAX + 1];

/* The =NAME entries, for the shared libraries patched later. */
static struct fdr__args_named *named;
static size_t nnamed;

size_t __xray_max_function_id(void);

/* "FID:ARGS:RET" into f, PROG's table; end: one past it. */
__FDR_NO_INSTRUMENT static int parse_entry(struct fdr__xray_fn_spec *f, const char *p,
					   const char *end)
{
	struct fdr__xray_args_table *t = fdr__xray_args_tables[0];
	char *q;
	long fid = strtol(p, &q, 10);

	if (q == p || *q != ':' || fid <= 0 || fid > t->max || t->spec[fid])
		return -1;
	f->fid = (int32_t)fid;
	if (fdr__args_parse_regs(f, q + 1, end))
		return -1;
	t->spec[fid] = f;
	return 0;
}

/* "=NAME:ARGS:RET" into named[nnamed]; end: one past it. */
__FDR_NO_INSTRUMENT static int parse_named(const char *p, const char *end)
{
	if (fdr__args_parse_named(&named[nnamed], p, end))
		return -1;
	nnamed++;
	return 0;
}

__FDR_NO_INSTRUMENT static size_t count_entries(const char *p)
{
	size_t n = 1;

	while ((p = strchr(p, ';')))
		n++, p++;
	return n;
}

/* Every entry of env into specs (by fid) or named; 0 or -1 at p. */
__FDR_NO_INSTRUMENT static int parse_all(const char *env, struct fdr__xray_fn_spec *specs,
					 const char **at)
{
	const char *p = env;

	for (size_t i = 0; *p; i++) {
		const char *end = strchr(p, ';');

		if (!end)
			end = p + strlen(p);
		*at = p;
		if (*p == '=' ? parse_named(p, end) : parse_entry(&specs[i], p, end))
			return -1;
		p = *end ? end + 1 : end;
	}
	return 0;
}

__FDR_NO_INSTRUMENT struct fdr__xray_args_table *fdr__xray_args_table_new(int id, int32_t max)
{
	struct fdr__xray_args_table *t;

	t = calloc(1, sizeof(*t) + ((size_t)max + 1) * sizeof(t->spec[0]));
	if (!t)
		return NULL;
	t->max = max;
	__atomic_store_n(&fdr__xray_args_tables[id], t, __ATOMIC_RELEASE);
	return t;
}

__FDR_NO_INSTRUMENT int fdr__xray_args_load(const char *env)
{
	struct fdr__xray_args_table *t;
	struct fdr__xray_fn_spec *specs;
	const char *at = env;
	size_t n;

	if (!env || !*env)
		return 0;
	n = count_entries(env);
	specs = calloc(n, sizeof(*specs));
	named = calloc(n, sizeof(*named));
	/* PROG's: nothing reads it before the retarget, after this */
	t = fdr__xray_args_table_new(0, (int32_t)__xray_max_function_id());
	if (!specs || !named || !t || parse_all(env, specs, &at)) {
		fprintf(stderr, "fdr xray mode: FDR_XRAY_ARGS: %s at '%.40s' "
			"(fdr record writes it: record with fdr record -A/-R)\n",
			specs && named && t ? "bad entry" : "out of memory", at);
		free(t);
		free(specs);
		free(named);
		fdr__xray_args_tables[0] = NULL;
		named = NULL;
		nnamed = 0;
		return -EINVAL;
	}
	return 0;
}

__FDR_NO_INSTRUMENT bool fdr__xray_args_any_named(void)
{
	return nnamed > 0;
}

__FDR_NO_INSTRUMENT const struct fdr__xray_fn_spec *fdr__xray_args_named(const char *name)
{
	return fdr__args_named_find(named, nnamed, name);
}

__FDR_NO_INSTRUMENT bool fdr__xray_args_wants(int32_t fid, uint8_t kind)
{
	const struct fdr__xray_fn_spec *f = fdr__xray_args_find(fid);

	return f && (kind == FDR_XRAY_ENTRY || (kind == FDR_XRAY_EXIT && f->ret));
}


__FDR_NO_INSTRUMENT void fdr__xray_args_entry(int32_t fid, enum fdr_xray_entry_type type,
					      const uint64_t *regs)
{
	const struct fdr__xray_fn_spec *f = fdr__xray_args_find(fid);
	uint8_t ev[8 + FDR_ENTER_ARGS_MAX * FDR_ARGS_STR_ROOM];
	uint64_t v[FDR_ENTER_ARGS_MAX] = { 0 };
	size_t len = 8;

	(void)type;
	if (!f) {	/* cannot happen: only their sleds come here */
		fdr_enter(fid);
		return;
	}
	memcpy(ev, FDR_ARGS_STR_MAGIC, 8);
	for (unsigned i = 0; i < f->n; i++) {
		v[i] = regs[f->arg[i].slot];	/* a stack slot: the caller's frame */
		if (f->arg[i].cls == 's')
			len += fdr__args_copy_string(ev + len, (uint8_t)i, v[i]);
	}
	fdr_enter_args(fid, v, f->n);
	if (len > 8)
		fdr_custom_event(ev, len);
}

__FDR_NO_INSTRUMENT void fdr__xray_args_exit(int32_t fid, enum fdr_xray_entry_type type,
					     const uint64_t *regs)
{
	const struct fdr__xray_fn_spec *f = fdr__xray_args_find(fid);
	uint8_t ev[16 + FDR_ARGS_STR_ROOM];
	uint64_t value;
	size_t len = 16;

	(void)type;
	if (f && f->ret) {
		value = regs[f->ret == 'f' ? FDR_XREG_XMM0 : FDR_XREG_RAX];
		memcpy(ev, FDR_ARGS_RET_MAGIC, 8);
		memcpy(ev + 8, &value, 8);
		if (f->ret == 's')
			len += fdr__args_copy_string(ev + len, 0, value);
		fdr_custom_event(ev, len);
	}
	fdr_exit(fid);
}
