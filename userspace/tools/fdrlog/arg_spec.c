// SPDX-License-Identifier: MIT
/*
 * arg_spec.c - parse, keep and print the argument specs of fdr record
 * -A/-R (arg_spec.h).  Values come from a log any process could have
 * written: every payload is bounds-checked before it is read.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/fdr_log.h>

#include "arg_spec.h"
#include "array_grow.h"
#include "out_buffer.h"

/* "32" -> 32; 0 if not one of the sizes. */
static unsigned parse_bits(const char *p, const char **end)
{
	unsigned v = (unsigned)strtoul(p, (char **)end, 10);

	return *end != p && (v == 8 || v == 16 || v == 32 || v == 64) ? v : 0;
}

/* "/FMT[SIZE]" or "/SIZE" after an item; 0 or -1. */
static int parse_format(struct arg_item *it, const char *p, const char *end)
{
	const char *q;

	it->bits = 64;
	if (p == end)
		return 0;
	if (*p++ != '/' || p == end)
		return -1;
	if (strchr("diuxscfp", *p)) {
		it->fmt = *p == 'i' ? 'd' : *p;
		p++;
	}
	if (p == end)
		return 0;
	if (it->fmt == 's' || it->fmt == 'c' || it->fmt == 'p' ||
	    !(it->bits = (uint8_t)parse_bits(p, &q)) || q != end)
		return -1;
	return it->fmt == 'f' && it->bits != 32 && it->bits != 64 ? -1 : 0;
}

/* One item of [p, end) into s; 0 or -1. */
static int parse_item(struct arg_spec *s, const char *p, const char *end)
{
	struct arg_item it = { 0 };
	const char *slash = memchr(p, '/', (size_t)(end - p));
	const char *name_end = slash ? slash : end, *q;
	size_t len = (size_t)(name_end - p);
	bool ret = len == 6 && !memcmp(p, "retval", 6);
	long reg = 0;

	if (!ret) {
		it.fp = len > 5 && !memcmp(p, "fparg", 5);
		if (!it.fp && !(len > 3 && !memcmp(p, "arg", 3)))
			return -1;
		reg = strtol(p + (it.fp ? 5 : 3), (char **)&q, 10);
		if (q != name_end || reg < 1)
			return -1;
	}
	if (parse_format(&it, name_end, end))
		return -1;
	if (it.fmt == 'f')
		it.fp = true;
	if (it.fp && it.fmt && it.fmt != 'f')
		return -1;	/* an integer format of a vector register */
	if (it.fp)
		it.fmt = 'f';
	if (reg > ARG_SPEC_REG_MAX)
		return -1;
	it.reg = (uint8_t)reg;
	if (it.fmt == 'c')
		it.bits = 8;
	if (ret) {
		s->has_ret = true;
		s->ret = it;
		return 0;
	}
	if (s->n == FDR_ENTER_ARGS_MAX)
		return -1;
	s->arg[s->n++] = it;
	return 0;
}

int arg_spec_parse(struct arg_spec *s, const char *text, char *err, size_t errlen)
{
	const char *p = text;

	do {
		const char *end = strchr(p, ',');

		if (!end)
			end = p + strlen(p);
		if (parse_item(s, p, end)) {
			snprintf(err, errlen, "'%.*s' is not an argument spec: expected argN (N 1-%d), "
				 "fpargN (1-%d) or retval, then /FMT[SIZE] (FMT one of d i u x s c f p, "
				 "SIZE 8 16 32 64), at most %d arguments", (int)(end - p > 40 ? 40 : end - p),
				 p, ARG_SPEC_REG_MAX, ARG_SPEC_REG_MAX, FDR_ENTER_ARGS_MAX);
			return -1;
		}
		p = *end ? end + 1 : end;
	} while (*p);
	return 0;
}

static size_t item_text(const struct arg_item *it, bool ret, char *out, size_t outsz)
{
	int n = ret ? snprintf(out, outsz, "retval") :
		snprintf(out, outsz, "%s%u", it->fp ? "fparg" : "arg", it->reg);

	if (it->fmt == 'f')
		n += snprintf(out + n, outsz > (size_t)n ? outsz - (size_t)n : 0, "/f%u", it->bits);
	else if (it->fmt == 's' || it->fmt == 'c' || it->fmt == 'p')
		n += snprintf(out + n, outsz > (size_t)n ? outsz - (size_t)n : 0, "/%c", it->fmt);
	else if (it->fmt)
		n += snprintf(out + n, outsz > (size_t)n ? outsz - (size_t)n : 0, "/%c%u",
			      it->fmt, it->bits);
	return (size_t)n;
}

int arg_spec_text(const struct arg_spec *s, char *out, size_t outsz)
{
	size_t len = 0;

	out[0] = 0;
	for (unsigned i = 0; i <= s->n && len < outsz; i++) {
		if (i == s->n && !s->has_ret)
			break;
		if (len)
			len += (size_t)snprintf(out + len, outsz - len, ",");
		if (len < outsz)
			len += item_text(i < s->n ? &s->arg[i] : &s->ret, i == s->n,
					 out + len, outsz - len);
	}
	return len < outsz ? 0 : -1;
}

static char reg_class(const struct arg_item *it)
{
	return it->fp ? 'f' : it->fmt == 's' ? 's' : 'i';
}

/* ARGS:RET after the len bytes already at out. */
static int compile_items(const struct arg_spec *s, size_t len, char *out, size_t outsz)
{

	for (unsigned i = 0; i < s->n && len < outsz; i++)
		len += (size_t)snprintf(out + len, outsz - len, "%s%c%u", i ? "," : "",
					reg_class(&s->arg[i]), s->arg[i].reg);
	if (len < outsz)
		len += (size_t)snprintf(out + len, outsz - len, ":");
	if (len < outsz && s->has_ret)
		len += (size_t)snprintf(out + len, outsz - len, "%c", reg_class(&s->ret));
	return len < outsz ? 0 : -1;
}

int arg_spec_compile(const struct arg_spec *s, int32_t fid, char *out, size_t outsz)
{
	return compile_items(s, (size_t)snprintf(out, outsz, "%d:", fid), out, outsz);
}

int arg_spec_compile_named(const struct arg_spec *s, const char *name, char *out, size_t outsz)
{
	return compile_items(s, (size_t)snprintf(out, outsz, "=%s:", name), out, outsz);
}

int arg_specs_merge(struct arg_specs *all, int32_t fid, const struct arg_spec *s)
{
	struct arg_spec *to = (struct arg_spec *)arg_specs_find(all, fid);
	size_t cap = all->n;

	if (!to) {
		if (array_grow((void **)&all->fid, &cap, all->n + 1, sizeof(*all->fid)))
			return -1;
		cap = all->n;
		if (array_grow((void **)&all->spec, &cap, all->n + 1, sizeof(*all->spec)))
			return -1;
		all->fid[all->n] = fid;
		to = &all->spec[all->n++];
		memset(to, 0, sizeof(*to));
	}
	if (to->n + s->n > FDR_ENTER_ARGS_MAX)
		return -1;
	memcpy(&to->arg[to->n], s->arg, s->n * sizeof(s->arg[0]));
	to->n += s->n;
	if (s->has_ret) {
		to->has_ret = true;
		to->ret = s->ret;
	}
	return 0;
}

int arg_specs_add_line(struct arg_specs *all, const char *line)
{
	struct arg_spec s = { 0 };
	char *at, err[16];
	long fid = strtol(line, &at, 10);

	if (at == line || *at != '@' || fid <= 0 || fid > INT32_MAX ||
	    arg_spec_parse(&s, at + 1, err, sizeof(err)))
		return -1;
	return arg_specs_merge(all, (int32_t)fid, &s);
}

const struct arg_spec *arg_specs_find(const struct arg_specs *all, int32_t fid)
{
	for (size_t i = 0; all && i < all->n; i++)
		if (all->fid[i] == fid)
			return &all->spec[i];
	return NULL;
}

void arg_specs_free(struct arg_specs *all)
{
	free(all->fid);
	free(all->spec);
	memset(all, 0, sizeof(*all));
}

/* uftrace's escapes inside quotes; any other byte outside printable
 * ASCII as \xHH. */
static void put_escaped(struct out_buffer *o, const uint8_t *p, size_t n, char quote)
{
	out_char(o, quote);
	for (size_t i = 0; i < n; i++) {
		if (p[i] == quote || p[i] == '\\')
			out_printf(o, "\\%c", p[i]);
		else if (p[i] == '\n')
			out_str(o, "\\n");
		else if (p[i] == '\t')
			out_str(o, "\\t");
		else if (p[i] == '\r')
			out_str(o, "\\r");
		else if (p[i] >= 0x20 && p[i] < 0x7f)
			out_char(o, (char)p[i]);
		else
			out_printf(o, "\\x%02x", p[i]);
	}
	out_char(o, quote);
}

/* The fdr_args_str of argument index in [p, p + n), or NULL. */
static const struct fdr_args_str *find_str(const uint8_t *p, uint32_t n, unsigned index,
					   const uint8_t **text)
{
	size_t off = 0;

	while (p && off + sizeof(struct fdr_args_str) <= n) {
		const struct fdr_args_str *h = (const void *)(p + off);

		if (off + sizeof(*h) + h->len > n)
			return NULL;
		if (h->index == index) {
			*text = p + off + sizeof(*h);
			return h;
		}
		off += sizeof(*h) + h->len;
	}
	return NULL;
}

static void put_string(struct out_buffer *o, uint64_t v, const uint8_t *p, uint32_t n,
		       unsigned index)
{
	const uint8_t *text = NULL;
	const struct fdr_args_str *h = find_str(p, n, index, &text);

	if (h && (h->flags & FDR_ARGS_STR_NULL)) {
		out_str(o, "NULL");
	} else if (!h || (h->flags & FDR_ARGS_STR_FAULT)) {
		out_printf(o, "%#llx", (unsigned long long)v);	/* not readable */
	} else {
		put_escaped(o, text, h->len, '"');
		if (h->flags & FDR_ARGS_STR_CUT)
			out_str(o, "...");
	}
}

static void put_float(struct out_buffer *o, uint64_t v, unsigned bits)
{
	if (bits == 32) {
		uint32_t w = (uint32_t)v;
		float f;

		memcpy(&f, &w, sizeof(f));
		out_printf(o, "%g", (double)f);
	} else {
		double d;

		memcpy(&d, &v, sizeof(d));
		out_printf(o, "%g", d);
	}
}

static void put_value(struct out_buffer *o, const struct arg_item *it, uint64_t v,
		      const uint8_t *strs, uint32_t strs_size, unsigned index)
{
	uint64_t mask = it && it->bits < 64 ? (1ull << it->bits) - 1 : ~0ull;
	unsigned shift = it ? 64u - it->bits : 0;
	uint8_t c = (uint8_t)v;

	switch (it ? it->fmt : 0) {
	case 'd':
		out_printf(o, "%lld", (long long)((int64_t)(v << shift) >> shift));
		break;
	case 'u':
		out_printf(o, "%llu", (unsigned long long)(v & mask));
		break;
	case 'x':
	case 'p':
		out_printf(o, "%#llx", (unsigned long long)(v & mask));
		break;
	case 'c':
		put_escaped(o, &c, 1, '\'');
		break;
	case 'f':
		put_float(o, v, it->bits);
		break;
	case 's':
		put_string(o, v, strs, strs_size, index);
		break;
	default:	/* uftrace's habit: small values decimal, large (pointers) hex */
		if ((int64_t)v > 100000 || (int64_t)v < -100000)
			out_printf(o, "%#llx", (unsigned long long)v);
		else
			out_printf(o, "%lld", (long long)v);
		break;
	}
}

void arg_put_args(struct out_buffer *o, const struct arg_spec *spec, const uint64_t *args,
		  uint32_t n, const uint8_t *strs, uint32_t strs_size)
{
	if (strs && strs_size >= 8) {	/* past the magic */
		strs += 8;
		strs_size -= 8;
	}
	out_char(o, '(');
	for (uint32_t i = 0; i < n; i++) {
		if (i)
			out_str(o, ", ");
		put_value(o, spec && i < spec->n ? &spec->arg[i] : NULL, args[i], strs, strs_size, i);
	}
	out_char(o, ')');
}

enum arg_record arg_record_kind(const uint8_t *p, uint32_t size)
{
	if (p && size >= 8 && !memcmp(p, FDR_ARGS_STR_MAGIC, 8))
		return ARG_RECORD_STR;
	if (p && size >= 16 && !memcmp(p, FDR_ARGS_RET_MAGIC, 8))
		return ARG_RECORD_RET;
	return ARG_RECORD_NONE;
}

void arg_put_ret_value(struct out_buffer *o, const struct arg_spec *spec, const uint8_t *ret,
		       uint32_t ret_size)
{
	uint64_t v;

	if (!ret || ret_size < 16)
		return;
	memcpy(&v, ret + 8, sizeof(v));
	put_value(o, spec && spec->has_ret ? &spec->ret : NULL, v, ret + 16, ret_size - 16, 0);
}

void arg_put_ret(struct out_buffer *o, const struct arg_spec *spec, const uint8_t *ret,
		 uint32_t ret_size)
{
	if (!ret || ret_size < 16)
		return;
	out_str(o, " = ");
	arg_put_ret_value(o, spec, ret, ret_size);
}
