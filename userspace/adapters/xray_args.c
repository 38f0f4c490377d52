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
#include <sys/uio.h>
#include <unistd.h>

#include "fdr.h"
#include <linux/fdr.h>
#include <linux/fdr_log.h>
#include "xray_args.h"

struct fdr__xray_fn_spec **fdr__xray_args_by_fid;
int32_t fdr__xray_args_max;

size_t __xray_max_function_id(void);

/* "i3" -> slot 2; "f1" -> slot FDR_XREG_XMM0. */
__FDR_NO_INSTRUMENT static int parse_reg(const char *p, struct fdr__xray_arg_reg *r)
{
	int idx = p[1] - '0';

	r->cls = p[0];
	if ((p[0] == 'i' || p[0] == 's') && idx >= 1 && idx <= 6)
		r->slot = (uint8_t)(idx - 1);
	else if (p[0] == 'f' && idx >= 1 && idx <= 8)
		r->slot = (uint8_t)(FDR_XREG_XMM0 + idx - 1);
	else
		return -1;
	return 0;
}

/* "FID:i1,s2:i" into f; end: one past it. */
__FDR_NO_INSTRUMENT static int parse_entry(struct fdr__xray_fn_spec *f, const char *p,
					   const char *end)
{
	char *q;
	long fid = strtol(p, &q, 10);

	if (q == p || *q != ':' || fid <= 0 || fid > fdr__xray_args_max ||
	    fdr__xray_args_by_fid[fid])
		return -1;
	f->fid = (int32_t)fid;
	for (p = q + 1; *p != ':'; p += *p == ',') {
		if (p + 2 > end || f->n == FDR_ENTER_ARGS_MAX || parse_reg(p, &f->arg[f->n++]))
			return -1;
		f->has_str |= *p == 's';
		p += 2;
		if (*p != ',' && *p != ':')
			return -1;
	}
	p++;
	if (p < end && (*p == 'i' || *p == 'f' || *p == 's'))
		f->ret = *p++;
	return p == end ? 0 : -1;
}

__FDR_NO_INSTRUMENT static size_t count_entries(const char *p)
{
	size_t n = 1;

	while ((p = strchr(p, ';')))
		n++, p++;
	return n;
}

/* Every entry of env into specs, indexed by fid; 0 or -1 at p. */
__FDR_NO_INSTRUMENT static int parse_all(const char *env, struct fdr__xray_fn_spec *specs,
					 const char **at)
{
	const char *p = env;

	for (size_t i = 0; *p; i++) {
		const char *end = strchr(p, ';');

		if (!end)
			end = p + strlen(p);
		*at = p;
		if (parse_entry(&specs[i], p, end))
			return -1;
		fdr__xray_args_by_fid[specs[i].fid] = &specs[i];
		p = *end ? end + 1 : end;
	}
	return 0;
}

__FDR_NO_INSTRUMENT int fdr__xray_args_load(const char *env)
{
	struct fdr__xray_fn_spec *specs;
	const char *at = env;

	if (!env || !*env)
		return 0;
	fdr__xray_args_max = (int32_t)__xray_max_function_id();
	specs = calloc(count_entries(env), sizeof(*specs));
	fdr__xray_args_by_fid = calloc((size_t)fdr__xray_args_max + 1, sizeof(*fdr__xray_args_by_fid));
	if (!specs || !fdr__xray_args_by_fid || parse_all(env, specs, &at)) {
		fprintf(stderr, "fdr xray mode: FDR_XRAY_ARGS: %s at '%.40s' "
			"(fdr record writes it: record with fdr record -A/-R)\n",
			specs && fdr__xray_args_by_fid ? "bad entry" : "out of memory", at);
		free(fdr__xray_args_by_fid);
		free(specs);
		fdr__xray_args_by_fid = NULL;
		fdr__xray_args_max = 0;
		return -EINVAL;
	}
	return 0;
}

__FDR_NO_INSTRUMENT bool fdr__xray_args_wants(int32_t fid, uint8_t kind)
{
	const struct fdr__xray_fn_spec *f = fdr__xray_args_find(fid);

	return f && (kind == FDR_XRAY_ENTRY || (kind == FDR_XRAY_EXIT && f->ret));
}

/* Up to FDR_ARGS_STR_MAX bytes of the string at addr, as one
 * fdr_args_str and its bytes at out; returns the bytes written. */
__FDR_NO_INSTRUMENT static size_t copy_string(uint8_t *out, uint8_t index, uint64_t addr)
{
	struct fdr_args_str h = { .index = index };
	uint8_t *text = out + sizeof(h);
	size_t page = (size_t)sysconf(_SC_PAGESIZE), first;
	struct iovec local, remote[2];
	ssize_t got;

	if (!addr) {
		h.flags = FDR_ARGS_STR_NULL;
		memcpy(out, &h, sizeof(h));
		return sizeof(h);
	}
	/* split at the page end: a readable head before an unmapped page */
	first = page - (size_t)(addr % page);
	if (first > FDR_ARGS_STR_MAX + 1)
		first = FDR_ARGS_STR_MAX + 1;
	remote[0] = (struct iovec){ (void *)(uintptr_t)addr, first };
	remote[1] = (struct iovec){ (void *)(uintptr_t)(addr + first),
				    FDR_ARGS_STR_MAX + 1 - first };
	local = (struct iovec){ text, FDR_ARGS_STR_MAX + 1 };
	got = process_vm_readv(getpid(), &local, 1, remote, remote[1].iov_len ? 2 : 1, 0);
	if (got <= 0) {
		h.flags = FDR_ARGS_STR_FAULT;
		got = 0;
	} else {
		uint8_t *nul = memchr(text, 0, (size_t)got);

		if (nul)
			got = nul - text;
		else if (got > FDR_ARGS_STR_MAX)
			got = FDR_ARGS_STR_MAX, h.flags = FDR_ARGS_STR_CUT;
		else	/* stopped at an unreadable page, no NUL seen */
			h.flags = FDR_ARGS_STR_FAULT;
	}
	h.len = (uint8_t)got;
	memcpy(out, &h, sizeof(h));
	return sizeof(h) + (size_t)got;
}

#define STR_ROOM	(sizeof(struct fdr_args_str) + FDR_ARGS_STR_MAX + 1)

__FDR_NO_INSTRUMENT void fdr__xray_args_entry(int32_t fid, enum fdr_xray_entry_type type,
					      const uint64_t *regs)
{
	const struct fdr__xray_fn_spec *f = fdr__xray_args_find(fid);
	uint8_t ev[8 + FDR_ENTER_ARGS_MAX * STR_ROOM];
	uint64_t v[FDR_ENTER_ARGS_MAX] = { 0 };
	size_t len = 8;

	(void)type;
	if (!f) {	/* cannot happen: only their sleds come here */
		fdr_enter(fid);
		return;
	}
	memcpy(ev, FDR_ARGS_STR_MAGIC, 8);
	for (unsigned i = 0; i < f->n; i++) {
		v[i] = regs[f->arg[i].slot];
		if (f->arg[i].cls == 's')
			len += copy_string(ev + len, (uint8_t)i, v[i]);
	}
	fdr_enter_args(fid, v, f->n);
	if (len > 8)
		fdr_custom_event(ev, len);
}

__FDR_NO_INSTRUMENT void fdr__xray_args_exit(int32_t fid, enum fdr_xray_entry_type type,
					     const uint64_t *regs)
{
	const struct fdr__xray_fn_spec *f = fdr__xray_args_find(fid);
	uint8_t ev[16 + STR_ROOM];
	uint64_t value;
	size_t len = 16;

	(void)type;
	if (f && f->ret) {
		value = regs[f->ret == 'f' ? FDR_XREG_XMM0 : FDR_XREG_RAX];
		memcpy(ev, FDR_ARGS_RET_MAGIC, 8);
		memcpy(ev + 8, &value, 8);
		if (f->ret == 's')
			len += copy_string(ev + len, 0, value);
		fdr_custom_event(ev, len);
	}
	fdr_exit(fid);
}
