// SPDX-License-Identifier: MIT
/*
 * record_filter.c - `fdr record -F FUNC` / `-N FUNC` / `--trigger DUR:FUNC`:
 * the XRay function ids of the named functions, from PROG's
 * instrumentation map (numbered as the runtime numbers them: fdrlog's
 * symbols_instr_map.c).  -F/-N hand them to the fdr XRay mode as
 * $FDR_XRAY_FUNCTIONS so that it patches only those sleds (or all but
 * those); --trigger puts the one id in the region's trigger.  The
 * -finstrument-functions hooks cannot be patched, and their ids are not
 * in the binary: -F/-N and --trigger by name need an XRay build.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "record.h"
#include "report.h"
#include "name_suggest.h"
#include "symbols_internal.h"

/* Is fid's name (as fdr report prints it) in v[0..n), or is "#fid"/"fid"? */
static bool named(const struct symbol *sym, const char *const *v, size_t n)
{
	char id[16], *name = sym->name ? fdr__demangle(sym->name) : NULL;
	bool hit = false;

	snprintf(id, sizeof(id), "#%d", sym->fid);
	for (size_t i = 0; i < n && !hit; i++)
		hit = (name && !strcmp(v[i], name)) || !strcmp(v[i], id) || !strcmp(v[i], id + 1);
	free(name);
	return hit;
}

/* fdr report's name of map entry i, for the close matches. */
static const char *map_name(void *ctx, size_t i, char *tmp, size_t len)
{
	const struct symbol *sym = &((const struct symbols *)ctx)->v[i];
	char *name = sym->name ? fdr__demangle(sym->name) : NULL;

	if (name)
		snprintf(tmp, len, "%s", name);
	else
		snprintf(tmp, len, "#%d", sym->fid);
	free(name);
	return tmp;
}

static const struct symbol *find_in_map(const struct symbols *s, const char *name)
{
	for (size_t k = 0; k < s->n; k++)
		if (named(&s->v[k], &name, 1))
			return &s->v[k];
	return NULL;
}

static bool in_map(const struct symbols *s, const char *name)
{
	return find_in_map(s, name) != NULL;
}

/*
 * Is name a function of one of the XRay-built libraries PROG links?  Its
 * symbol-table name into raw (what the mode matches: "shapes::total(int)"
 * is _ZN6shapes5totalEi there).  The libraries are listed once, on the
 * first name PROG's map lacks.
 */
static bool in_libs(const struct prog *p, struct prog_libs *libs, bool *read, const char *name,
		    char *raw, size_t rawsz)
{
	const struct symbol *sym = NULL;

	if (!*read && p->elf.dynamic)
		fdr__prog_libs(p->path, libs);
	*read = true;
	for (size_t i = 0; i < libs->n && !sym; i++) {
		struct symbols *s;
		char msg[512];

		if (symbols_from_instr_map(&s, libs->path[i], msg, sizeof(msg)))
			continue;	/* not built with XRay */
		sym = find_in_map(s, name);
		if (sym && fdr__elf_function_name(libs->path[i], sym->address, raw, rawsz))
			snprintf(raw, rawsz, "%s", name);
		symbols_free(s);
	}
	return sym != NULL;
}

/* "-X NAME: no such function", with the map's names closest to it. */
static void no_such(const struct symbols *s, const char *name, char opt, const char *where)
{
	char close[1024];

	name_suggest(name, map_name, (void *)s, s->n, close, sizeof(close));
	fprintf(stderr, "fdr record: -%c %s: no such function in the program's XRay "
		"instrumentation map%s%s (names as fdr report prints them, or #id)\n", opt,
		name, where, close);
}

/* A name that is neither PROG's nor its libraries': an error, unless
 * PROG may dlopen() one that has it (then only a note). */
static int unknown(const struct prog *p, const struct symbols *s, const char *name, char opt)
{
	bool id = name[0] == '#' || (name[0] >= '0' && name[0] <= '9');

	if (p->elf.dlopen_seen && !id && !strchr(name, ',')) {
		fprintf(stderr, "fdr record: note: -%c %s: not in the program's XRay map nor in "
			"its libraries'; kept for the libraries it dlopen()s\n", opt, name);
		return 0;
	}
	no_such(s, name, opt, p->elf.dynamic ? " nor in its shared libraries'" : "");
	return FDR_EXIT_FAILED;
}

int fdr__record_lookup(const struct symbols *s, const char *name, char opt, int32_t *fids,
		       size_t max)
{
	size_t n = 0;

	for (size_t k = 0; k < s->n && n < max; k++)
		if (named(&s->v[k], &name, 1))
			fids[n++] = s->v[k].fid;
	if (!n)
		no_such(s, name, opt, "");
	return (int)n;
}

int fdr__record_dso_name(const struct prog *p, const struct symbols *s, const char *name,
			 char opt, char *raw, size_t rawsz)
{
	struct prog_libs libs = { 0 };
	bool read = false, id = name[0] == '#' || (name[0] >= '0' && name[0] <= '9');
	int r = 1;

	if (in_map(s, name))
		return 0;
	snprintf(raw, rawsz, "%s", name);
	if (id || strchr(name, ',') || !in_libs(p, &libs, &read, name, raw, rawsz))
		r = unknown(p, s, name, opt) ? FDR_EXIT_FAILED : 1;
	fdr__prog_libs_free(&libs);
	/* ';' and ':' would break $FDR_XRAY_ARGS; no symbol has them raw */
	if (r == 1 && (strchr(raw, ':') || strchr(raw, ';'))) {
		fprintf(stderr, "fdr record: -%c %s: its symbol-table name has ':' or ';', "
			"which -%c cannot pass to the library\n", opt, name, opt);
		r = FDR_EXIT_FAILED;
	}
	return r;
}

/*
 * The names PROG's map does not have go to the XRay mode as
 * "$FDR_XRAY_DSO_FUNCTIONS" = only:|skip:NAME,... for the functions of
 * the shared libraries it patches (userspace/adapters/xray_dso.h): ids
 * there are given as the program loads them.  An id (#N) must be PROG's.
 */
static int dso_spec(const struct prog *p, const struct symbols *s, const char *const *v,
		    size_t n, char opt, char *out, size_t outsz)
{
	size_t len = (size_t)snprintf(out, outsz, opt == 'F' ? "only:" : "skip:");
	struct prog_libs libs = { 0 };
	bool read = false;
	int r = 0;

	for (size_t i = 0; i < n && !r; i++) {
		char raw[1024];

		if (in_map(s, v[i]))
			continue;
		snprintf(raw, sizeof(raw), "%s", v[i]);
		if ((v[i][0] == '#' || (v[i][0] >= '0' && v[i][0] <= '9') || strchr(v[i], ',') ||
		     !in_libs(p, &libs, &read, v[i], raw, sizeof(raw))) &&
		    (r = unknown(p, s, v[i], opt)))
			break;
		len += (size_t)snprintf(out + len, len < outsz ? outsz - len : 0, "%s%s",
					out[len - 1] == ':' ? "" : ",", raw);
		if (len >= outsz) {
			fprintf(stderr, "fdr record: too many functions for -%c\n", opt);
			r = FDR_EXIT_FAILED;
		}
	}
	fdr__prog_libs_free(&libs);
	return r;
}

/* "only:" the -F functions not also given to -N, or "skip:" the -N ones. */
static int build_spec(const struct symbols *s, const struct record_opts *o,
		      char *out, size_t outsz)
{
	size_t len = (size_t)snprintf(out, outsz, o->nonly ? "only:" : "skip:");
	bool first = true;

	for (size_t k = 0; k < s->n; k++) {
		bool on = o->nonly ? named(&s->v[k], o->only, o->nonly) &&
				     !named(&s->v[k], o->hide, o->nhide)
				   : named(&s->v[k], o->hide, o->nhide);

		if (!on)
			continue;
		len += (size_t)snprintf(out + len, len < outsz ? outsz - len : 0, "%s%d",
					first ? "" : ",", s->v[k].fid);
		first = false;
		if (len >= outsz) {
			fprintf(stderr, "fdr record: too many functions for -F/-N\n");
			return FDR_EXIT_FAILED;
		}
	}
	return 0;
}

int fdr__record_filter(const struct prog *p, const struct record_opts *o,
		       char *out, size_t outsz, char *dso, size_t dsosz)
{
	struct symbols *s;
	char msg[512];
	int r;

	out[0] = dso[0] = 0;
	if (!o->nonly && !o->nhide)
		return 0;
	if (p->script || p->elf.instr != FDR_INSTR_XRAY) {
		fprintf(stderr, "fdr record: -F/-N patch XRay sleds: they need a program "
			"built with fdr-cc (XRay), not --gcc\n");
		return FDR_EXIT_FAILED;
	}
	if (symbols_from_instr_map(&s, p->path, msg, sizeof(msg))) {
		fprintf(stderr, "fdr record: -F/-N: %s\n", msg);
		return FDR_EXIT_FAILED;
	}
	r = o->nonly ? dso_spec(p, s, (const char *const *)o->only, o->nonly, 'F', dso, dsosz)
		     : dso_spec(p, s, (const char *const *)o->hide, o->nhide, 'N', dso, dsosz);
	if (!r)
		r = build_spec(s, o, out, outsz);
	symbols_free(s);
	return r;
}

/* "#12" or "12": 0 and *fid, else -1. */
static int parse_fid(const char *s, int32_t *fid)
{
	char *end;
	long v;

	if (*s == '#')
		s++;
	if (*s < '0' || *s > '9')
		return -1;
	errno = 0;
	v = strtol(s, &end, 10);
	if (errno || *end || v <= 0 || v > INT32_MAX)
		return -1;
	*fid = (int32_t)v;
	return 0;
}

/* The one function of the instrumentation map called name. */
static int trigger_fid_by_name(const struct symbols *s, const char *name, int32_t *fid)
{
	size_t found = 0;

	for (size_t k = 0; k < s->n; k++) {
		if (!named(&s->v[k], &name, 1))
			continue;
		if (found++ && s->v[k].fid != *fid) {
			fprintf(stderr, "fdr record: --trigger: '%s' names several functions "
				"(#%d, #%d, ...): give one as #id\n", name, *fid, s->v[k].fid);
			return FDR_EXIT_FAILED;
		}
		*fid = s->v[k].fid;
	}
	if (found)
		return 0;
	fprintf(stderr, "fdr record: --trigger: %s: no such function in the program's "
		"XRay instrumentation map (names as fdr report prints them, or #id)\n", name);
	return FDR_EXIT_FAILED;
}

int fdr__record_trigger_fid(const struct prog *p, struct record_opts *o)
{
	struct symbols *s;
	char msg[512];
	int r;

	o->trigger_fid = 0;
	if (!o->trigger_func || !parse_fid(o->trigger_func, &o->trigger_fid))
		return 0;
	if (p->script || p->elf.instr != FDR_INSTR_XRAY) {
		fprintf(stderr, "fdr record: --trigger %s: function names are looked up in "
			"the XRay instrumentation map; for a --gcc build give the id "
			"fdr report prints (#id)\n", o->trigger_func);
		return FDR_EXIT_FAILED;
	}
	if (symbols_from_instr_map(&s, p->path, msg, sizeof(msg))) {
		fprintf(stderr, "fdr record: --trigger: %s\n", msg);
		return FDR_EXIT_FAILED;
	}
	r = trigger_fid_by_name(s, o->trigger_func, &o->trigger_fid);
	symbols_free(s);
	return r;
}
