// SPDX-License-Identifier: MIT
/*
 * patch_select.c - which functions fdr record -P selects: its patterns
 * arrive in $FDR_PATCH, one a line, and are read as the filter language
 * reads -F (userspace/tools/fdrlog/filter_opts.c): a POSIX extended
 * regular expression, unanchored, when the pattern holds one of
 * .?*+-^$|()[]{}, else the exact name.  Names are the symbol table's
 * (mangled, for C++).
 *
 * As uftrace's -P, a pattern selects in the executable only, unless it
 * ends in @MODULE: then in the loaded objects MODULE names (patch_libs.c;
 * the text after the last '@', so a function name cannot hold one).
 */
#include <regex.h>
#include <stdlib.h>
#include <string.h>

#include "patch_hook.h"

#define REGEX_CHARS	".?*+-^$|()[]{}"
#define PATTERNS_MAX	64

struct fdr_patch_select {
	size_t n;
	char *exact[PATTERNS_MAX];	/* NULL: re[k] holds the regex */
	regex_t re[PATTERNS_MAX];
};

static int add(struct fdr_patch_select *s, const char *p, size_t len)
{
	char *pat = strndup(p, len);

	if (!pat || s->n == PATTERNS_MAX)
		return free(pat), -1;
	if (!strpbrk(pat, REGEX_CHARS)) {
		s->exact[s->n++] = pat;
		return 0;
	}
	if (regcomp(&s->re[s->n], pat, REG_EXTENDED | REG_NOSUB)) {
		free(pat);	/* fdr record checked them; never here */
		return -1;
	}
	free(pat);
	s->n++;
	return 0;
}

/*
 * Does MODULE name the object whose file is base?  Its whole name, or
 * the name up to a dot: "libz" and "libz.so" name libz.so.1, as uftrace's
 * "-P .@libfoo" names libfoo.so.
 */
static bool names_module(const char *module, size_t len, const char *base)
{
	return !strncmp(base, module, len) && (base[len] == '\0' || base[len] == '.');
}

/* The length of the function pattern p[0, len) applies to the object at
 * path (the executable when is_main), else 0. */
static size_t applies(const char *p, size_t len, const char *path, bool is_main)
{
	const char *at = memrchr(p, '@', len);
	const char *base = strrchr(path, '/');

	if (!at)
		return is_main ? len : 0;
	base = base ? base + 1 : path;
	return names_module(at + 1, len - (size_t)(at + 1 - p), base) ? (size_t)(at - p) : 0;
}

bool fdr__patch_select_has_module(const char *patterns)
{
	for (const char *p = patterns; *p; p += strcspn(p, "\n") + !!p[strcspn(p, "\n")])
		if (memchr(p, '@', strcspn(p, "\n")))
			return true;
	return false;
}

struct fdr_patch_select *fdr__patch_select_new(const char *patterns, const char *path,
					       bool is_main)
{
	struct fdr_patch_select *s = calloc(1, sizeof(*s));

	for (const char *p = patterns; s && *p; p += strcspn(p, "\n") + !!p[strcspn(p, "\n")]) {
		size_t len = applies(p, strcspn(p, "\n"), path, is_main);

		if (len && add(s, p, len)) {
			fdr__patch_select_free(s);
			return NULL;
		}
	}
	return s;
}

bool fdr__patch_select_none(const struct fdr_patch_select *s)
{
	return !s->n;
}

bool fdr__patch_selected(const struct fdr_patch_select *s, const char *name)
{
	for (size_t k = 0; k < s->n; k++)
		if (s->exact[k] ? !strcmp(s->exact[k], name) : !regexec(&s->re[k], name, 0, NULL, 0))
			return true;
	return false;
}

void fdr__patch_select_free(struct fdr_patch_select *s)
{
	if (!s)
		return;
	for (size_t k = 0; k < s->n; k++) {
		if (s->exact[k])
			free(s->exact[k]);
		else
			regfree(&s->re[k]);
	}
	free(s);
}
