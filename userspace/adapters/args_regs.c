// SPDX-License-Identifier: MIT
/*
 * args_regs.c - the compiled argument specs shared by the XRay mode
 * (xray_args.c) and library-call tracing (plt_args.c): which register or
 * stack slot each value is in (args_regs.h), and the copy of a string
 * argument into the log.
 *
 * Strings are read with process_vm_readv() on our own pid: a bad pointer
 * in an argument is a fact to record (FDR_ARGS_STR_FAULT), not a crash of
 * the program.
 */
#include <stdlib.h>
#include <string.h>
#include <sys/uio.h>
#include <unistd.h>

#include "fdr.h"
#include <linux/fdr.h>
#include <linux/fdr_log.h>
#include "args_regs.h"

/* "i3" -> slot 2; "f1" -> slot FDR_XREG_XMM0; "i7" and "f9" -> the first
 * stack slot.  p past it into *end. */
__FDR_NO_INSTRUMENT static int parse_reg(const char *p, struct fdr__xray_arg_reg *r,
					 const char **end)
{
	char *q;
	long idx = strtol(p + 1, &q, 10);

	*end = q;
	r->cls = p[0];
	if (q == p + 1 || idx < 1)
		return -1;
	if ((p[0] == 'i' || p[0] == 's') && idx <= 6)
		r->slot = (uint8_t)(idx - 1);
	else if ((p[0] == 'i' || p[0] == 's') && idx <= FDR_XARG_INT_MAX)
		r->slot = (uint8_t)(FDR_XREG_STACK + idx - 6);
	else if (p[0] == 'f' && idx <= 8)
		r->slot = (uint8_t)(FDR_XREG_XMM0 + idx - 1);
	else if (p[0] == 'f' && idx <= FDR_XARG_FP_MAX)
		r->slot = (uint8_t)(FDR_XREG_STACK + idx - 8);
	else
		return -1;
	return 0;
}

/* "ARGS:RET" at p (after the id or name) into f; end: one past it. */
__FDR_NO_INSTRUMENT int fdr__args_parse_regs(struct fdr__xray_fn_spec *f, const char *p,
					  const char *end)
{
	for (; p < end && *p != ':'; p += *p == ',') {
		if (f->n == FDR_ENTER_ARGS_MAX || parse_reg(p, &f->arg[f->n++], &p))
			return -1;
		f->has_str |= f->arg[f->n - 1].cls == 's';
		if (p >= end || (*p != ',' && *p != ':'))
			return -1;
	}
	if (p >= end)
		return -1;
	p++;
	if (p < end && (*p == 'i' || *p == 'f' || *p == 's'))
		f->ret = *p++;
	return p == end ? 0 : -1;
}

/* Up to FDR_ARGS_STR_MAX bytes of the string at addr, as one
 * fdr_args_str and its bytes at out; returns the bytes written. */
__FDR_NO_INSTRUMENT int fdr__args_parse_named(struct fdr__args_named *ns, const char *p,
					    const char *end)
{
	const char *colon = memchr(p, ':', (size_t)(end - p));

	if (*p != '=' || !colon || colon == p + 1)
		return -1;
	ns->name = p + 1;
	ns->len = (size_t)(colon - ns->name);
	return fdr__args_parse_regs(&ns->spec, colon + 1, end);
}

__FDR_NO_INSTRUMENT const struct fdr__xray_fn_spec *
fdr__args_named_find(const struct fdr__args_named *v, size_t n, const char *name)
{
	size_t len = name ? strlen(name) : 0;

	for (size_t i = 0; i < n && name; i++)
		if (v[i].len == len && !memcmp(v[i].name, name, len))
			return &v[i].spec;
	return NULL;
}

__FDR_NO_INSTRUMENT size_t fdr__args_copy_string(uint8_t *out, uint8_t index, uint64_t addr)
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
