// SPDX-License-Identifier: MIT
/*
 * patch_opts.c - `fdr record -P PATTERN`: hand the patterns to the
 * preloaded runtime (libfdr-plt.so, userspace/adapters/patch_hook.h) and
 * print what it patched (Documentation/integrations.md, "Functions of
 * programs not built with fdr-cc").
 *
 * The patterns go through PROG's environment as $FDR_PATCH, one a line,
 * inherited like LD_PRELOAD: an exec'ed program is patched again by
 * the same patterns.  Each process that patched leaves its counts in
 * DIR/fdr-patch.<pid>.txt, printed here after the run.
 */
#include <dirent.h>
#include <limits.h>
#include <regex.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "record.h"

#define PATCH_ENV		"FDR_PATCH"
#define PATCH_NO_LIBCALL_ENV	"FDR_PATCH_NO_LIBCALL"
#define COVERAGE_PREFIX		"fdr-patch."
#define REGEX_CHARS		".?*+-^$|()[]{}"
#define THREADS_WHY		"other threads running"	/* patch_decode.c's name */

/*
 * A regular expression must compile: the runtime cannot say why.  As
 * uftrace's, PATTERN@MODULE selects in the library MODULE (its file name,
 * whole or up to a dot), PATTERN alone in the executable.
 */
static int check_pattern(const char *arg)
{
	char why[256], pat[4096];
	const char *at = strrchr(arg, '@');
	regex_t re;
	int e;

	snprintf(pat, sizeof(pat), "%.*s", at ? (int)(at - arg) : (int)strlen(arg), arg);
	if (!*pat || strchr(arg, '\n') || (at && (!at[1] || strchr(at, '/')))) {
		fprintf(stderr, "fdr record: -P '%s': expected a function name or a regular "
			"expression on one line, then @LIBRARY (a file name, no '/') to select "
			"in a library\n", arg);
		return 2;
	}
	if (!strpbrk(pat, REGEX_CHARS))
		return 0;
	e = regcomp(&re, pat, REG_EXTENDED | REG_NOSUB);
	if (!e) {
		regfree(&re);
		return 0;
	}
	regerror(e, &re, why, sizeof(why));
	fprintf(stderr, "fdr record: -P '%s': not a valid regular expression (%s); "
		"'-P .' selects every function\n", arg, why);
	return 2;
}

static int refuse(const char *prog, const char *why, const char *fix)
{
	fprintf(stderr, "fdr record: -P cannot patch %s: %s; %s\n", prog, why, fix);
	return FDR_EXIT_FAILED;
}

/* $FDR_PATCH: the patterns, one a line. */
static int set_patterns(const struct record_opts *o)
{
	char v[65536] = "";
	size_t len = 0;
	int r;

	for (size_t i = 0; i < o->npatch; i++) {
		if ((r = check_pattern(o->patch[i])))
			return r;
		len += (size_t)snprintf(v + len, sizeof(v) - len, "%s\n", o->patch[i]);
		if (len >= sizeof(v))
			return refuse(o->argv[0], "the -P patterns are too long", "give fewer");
	}
	if (setenv(PATCH_ENV, v, 1) ||
	    (o->no_libcall && setenv(PATCH_NO_LIBCALL_ENV, "1", 1)))
		return refuse(o->argv[0], "out of memory", "retry");
	return 0;
}

int fdr__patch_setup(const struct record_opts *o, const struct prog *p)
{
	if (!o->npatch)
		return 0;
	if (o->pid)
		return refuse("a running process", "patching happens at start-up",
			      "run the program under fdr record instead");
	if (p->script)
		return refuse(o->argv[0], "it is a script", "give its interpreter as PROG");
	if (p->elf.instr == FDR_INSTR_PATCHABLE)
		return set_patterns(o);		/* its own runtime patches (pfe_hook.h) */
	if (p->elf.instr != FDR_INSTR_NONE)
		return refuse(o->argv[0], "it is built with fdr-cc (or XRay)",
			      "its functions are recorded without -P (-F selects them)");
	if (!p->elf.dynamic)
		return refuse(o->argv[0], "it is statically linked and the runtime is "
			      "preloaded", "link it dynamically, or rebuild it with fdr-cc");
	return set_patterns(o);
}

/* "from .symtab", "from .dynsym + 22 of the DWARF of x.debug": where the
 * entries came from (an fdr-cc --patchable program's file says nothing). */
static void source_of(char *out, size_t outsz, const char *table, const char *dwarf)
{
	unsigned long n = strtoul(dwarf, NULL, 10);
	const char *file = strchr(dwarf, '\t');

	if (!*table && !*dwarf)
		*out = '\0';
	else if (!*dwarf)
		snprintf(out, outsz, ", from %s", table);
	else
		snprintf(out, outsz, ", from %s%s%lu of the DWARF of %s", table,
			 *table ? " + " : "", n, file ? file + 1 : "?");
}

static void print_one(const char *dir, const char *name)
{
	char path[PATH_MAX], key[64], val[PATH_MAX], refused[1024] = "";
	char table[32] = "", dwarf[PATH_MAX] = "", from[PATH_MAX + 64];
	unsigned long functions = 0, selected = 0, patched = 0, n;
	bool at_dlopen = false;
	size_t rl = 0;
	FILE *f;

	if (snprintf(path, sizeof(path), "%s/%s", dir, name) >= (int)sizeof(path) ||
	    !(f = fopen(path, "r")))
		return;
	strcpy(val, "?");
	while (fscanf(f, "%63[^\t\n]\t%4095[^\n]\n", key, val) == 2) {
		n = strtoul(val, NULL, 10);
		if (!strcmp(key, "exe"))
			snprintf(path, sizeof(path), "%s", val);
		else if (!strcmp(key, "loaded"))
			at_dlopen = true;
		else if (!strcmp(key, "error"))
			fprintf(stderr, "fdr record: -P: %s: %s\n", path, val);
		else if (!strcmp(key, "functions"))
			functions = n;
		else if (!strcmp(key, "symbols"))
			snprintf(table, sizeof(table), "%s", val);
		else if (!strcmp(key, "dwarf"))
			snprintf(dwarf, sizeof(dwarf), "%s", val);
		else if (!strcmp(key, "selected"))
			selected = n;
		else if (!strcmp(key, "patched"))
			patched = n;
		else if (n && rl < sizeof(refused))
			rl += (size_t)snprintf(refused + rl, sizeof(refused) - rl, "%s%lu %s",
					       rl ? ", " : "", n, key);
	}
	fclose(f);
	source_of(from, sizeof(from), table, dwarf);
	fprintf(stderr, "fdr record: -P: %s: %lu of %lu functions patched (%lu selected%s)%s%s%s\n",
		path, patched, functions, selected, from, rl ? "; refused: " : "", refused,
		selected ? "" : "; no function matches the -P patterns");
	if (strstr(refused, THREADS_WHY) && at_dlopen)
		fprintf(stderr, "fdr record: -P: %s: dlopen() started a thread (a constructor of "
			"what it loaded), which could be running the code being rewritten: "
			"nothing patched\n", path);
	else if (strstr(refused, THREADS_WHY))
		fprintf(stderr, "fdr record: -P: %s: a library's constructor started a thread "
			"before the patching, which rewrites code a thread could be running: "
			"nothing patched; rebuild the program with fdr-cc to record its "
			"functions\n", path);
}

void fdr__patch_summary(const struct record_opts *o, const char *dir)
{
	struct dirent **v;
	int n;

	/* -P's, or an fdr-cc --patchable program's (pfe_hook.h); an attach
	 * writes none */
	if (o->pid || (n = scandir(dir, &v, NULL, alphasort)) < 0)
		return;
	for (int i = 0; i < n; i++) {
		if (!strncmp(v[i]->d_name, COVERAGE_PREFIX, strlen(COVERAGE_PREFIX)))
			print_one(dir, v[i]->d_name);
		free(v[i]);
	}
	free(v);
}
