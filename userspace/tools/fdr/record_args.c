// SPDX-License-Identifier: MIT
/*
 * record_args.c - `fdr record -A FUNC@SPEC` / `-R FUNC@retval[/FMT]`:
 * check each spec (arg_spec.h has the language), find FUNC in PROG's
 * XRay instrumentation map (else in its fdr-cc-built shared libraries:
 * record_args_dso.c), and hand the XRay mode the registers to log as
 * $FDR_XRAY_ARGS (userspace/adapters/xray_args.h).  fdr record writes
 * the specs into DIR/info, where the readers find the types.  Everything
 * is checked before PROG runs: a bad spec leaves no DIR.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "record.h"
#include "symbols_internal.h"

/* "FUNC@SPEC" into s and the function's name; 0 or the exit status. */
static int parse_one(const char *arg, char opt, struct arg_spec *s, char *func, size_t funcsz)
{
	const char *at = strrchr(arg, '@');
	char err[320];

	if (!at || at == arg || !at[1] || (size_t)(at - arg) >= funcsz) {
		fprintf(stderr, "fdr record: -%c %s: expected FUNC@SPEC, e.g. -%c 'int_add@%s'\n",
			opt, arg, opt, opt == 'A' ? "arg1/i32,arg2/i32" : "retval/i32");
		return FDR_EXIT_FAILED;
	}
	memcpy(func, arg, (size_t)(at - arg));
	func[at - arg] = 0;
	if (arg_spec_parse(s, at + 1, err, sizeof(err))) {
		fprintf(stderr, "fdr record: -%c %s: %s\n", opt, arg, err);
		return FDR_EXIT_FAILED;
	}
	if (opt == 'R' && (s->n || !s->has_ret)) {
		fprintf(stderr, "fdr record: -R %s: -R takes retval[/FMT] only; arguments go "
			"to -A\n", arg);
		return FDR_EXIT_FAILED;
	}
	return 0;
}

static int too_many(const struct record_opts *o, size_t i)
{
	fprintf(stderr, "fdr record: -%c %s: at most %d arguments a function\n",
		o->argopt[i], o->argspec[i], FDR_ENTER_ARGS_MAX);
	return FDR_EXIT_FAILED;
}

/* One -A/-R into o->args, for every function of the map it names, or
 * into o->dso_args for a shared library's. */
static int add_one(const struct prog *p, const struct symbols *syms, struct record_opts *o,
		   size_t i)
{
	struct arg_spec s = { 0 };
	char func[1024], raw[1024];
	int32_t fids[16];
	int n, r = parse_one(o->argspec[i], o->argopt[i], &s, func, sizeof(func));

	if (r)
		return r;
	r = fdr__record_dso_name(p, syms, func, o->argopt[i], raw, sizeof(raw));
	if (r == 1)
		return fdr__named_specs_merge(&o->dso_args, raw, &s) ? too_many(o, i) : 0;
	if (r)
		return r;
	n = fdr__record_lookup(syms, func, o->argopt[i], fids, 16);
	if (!n)
		return FDR_EXIT_FAILED;
	for (int k = 0; k < n; k++) {
		if (arg_specs_merge(&o->args, fids[k], &s))
			return too_many(o, i);
	}
	return 0;
}

/* $FDR_XRAY_ARGS: the compiled form of every spec, ';'-separated. */
static int compile_env(const struct arg_specs *a, const struct named_specs *d, char **env)
{
	size_t size = (a->n + d->n) * (16 + FDR_ENTER_ARGS_MAX * 4) + 1, len = 0;
	char *out;

	for (size_t i = 0; i < d->n; i++)
		size += strlen(d->name[i]) + 2;
	out = malloc(size);

	if (!out) {
		fprintf(stderr, "fdr record: -A/-R: out of memory\n");
		return FDR_EXIT_FAILED;
	}
	out[0] = 0;
	for (size_t i = 0; i < a->n; i++) {
		if (len)
			out[len++] = ';';
		/* cannot be too small: 16 bytes hold "FID::r", 4 an argument */
		arg_spec_compile(&a->spec[i], a->fid[i], out + len, size - len);
		len += strlen(out + len);
	}
	for (size_t i = 0; i < d->n; i++) {
		if (len)
			out[len++] = ';';
		arg_spec_compile_named(&d->spec[i], d->name[i], out + len, size - len);
		len += strlen(out + len);
	}
	*env = out;
	return 0;
}

/* -a: DWARF's spec of each function no -A/-R named (theirs win, as in
 * uftrace). */
static int add_auto(const struct prog *p, const struct symbols *syms, struct record_opts *o)
{
	struct arg_specs found = { 0 };
	int r = fdr__auto_args(p, syms, &found);

	for (size_t i = 0; i < found.n && !r; i++)
		if (!arg_specs_find(&o->args, found.fid[i]) &&
		    arg_specs_merge(&o->args, found.fid[i], &found.spec[i]))
			r = FDR_EXIT_FAILED;
	arg_specs_free(&found);
	return r ? r : fdr__auto_args_libs(p, &o->dso_args);
}

/* -A/-R on library calls: each FUNC as the program imports it. */
int fdr__record_args_plt(const struct record_opts *o, struct named_specs *named)
{
	if (o->no_libcall) {
		fprintf(stderr, "fdr record: -%c: PROG is not built with fdr-cc: arguments are "
			"read from its library calls, which --no-libcall turns off\n",
			o->argopt[0]);
		return FDR_EXIT_FAILED;
	}
	for (size_t i = 0; i < o->nargspec; i++) {
		struct arg_spec s = { 0 };
		char func[1024];
		int r = parse_one(o->argspec[i], o->argopt[i], &s, func, sizeof(func));

		if (r)
			return r;
		if (strpbrk(func, ":;,#()")) {
			fprintf(stderr, "fdr record: -%c %s: PROG is not built with fdr-cc: FUNC "
				"must be a library function as PROG imports it (a C name, e.g. "
				"getenv)\n", o->argopt[i], o->argspec[i]);
			return FDR_EXIT_FAILED;
		}
		if (fdr__named_specs_merge(named, func, &s))
			return too_many(o, i);
	}
	return 0;
}

int fdr__record_args(const struct prog *p, struct record_opts *o, char **env)
{
	char opt = o->auto_args ? 'a' : o->argopt[0];
	struct symbols *syms;
	char msg[512];
	int r = 0;

	*env = NULL;
	if (!o->nargspec && !o->auto_args)
		return 0;
	if (p->libcall_only && !o->pid && !o->auto_args) {	/* its library calls */
		r = fdr__record_args_plt(o, &o->dso_args);
		if (!r)
			r = compile_env(&o->args, &o->dso_args, env);
		if (r)
			fdr__record_args_free(o);
		return r;
	}
	if (o->pid || p->script || p->elf.instr != FDR_INSTR_XRAY) {
		fprintf(stderr, "fdr record: -%c: arguments and return values are read by the "
			"XRay trampolines: %s\n", opt, o->pid ?
			"not with -p (the running program's sleds are set already); record "
			"PROG from its start" : "PROG must be built with fdr-cc (XRay), not --gcc");
		return FDR_EXIT_FAILED;
	}
	if (symbols_from_instr_map(&syms, p->path, msg, sizeof(msg))) {
		fprintf(stderr, "fdr record: -%c: %s\n", opt, msg);
		return FDR_EXIT_FAILED;
	}
	for (size_t i = 0; i < o->nargspec && !r; i++)
		r = add_one(p, syms, o, i);
	if (!r && o->auto_args)
		r = add_auto(p, syms, o);
	symbols_free(syms);
	if (!r)
		r = compile_env(&o->args, &o->dso_args, env);
	if (r)
		fdr__record_args_free(o);
	return r;
}

void fdr__record_args_free(struct record_opts *o)
{
	arg_specs_free(&o->args);
	fdr__named_specs_free(&o->dso_args);
}
