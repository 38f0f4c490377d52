// SPDX-License-Identifier: MIT
/*
 * patch_select.c - which functions fdr record -P selects: its patterns
 * arrive in $FDR_PATCH, one a line, and are read as the filter language
 * reads -F (userspace/tools/fdrlog/filter_opts.c): a POSIX extended
 * regular expression, unanchored, when the pattern holds one of
 * .?*+-^$|()[]{}, else the exact name.  Names are the symbol table's
 * (mangled, for C++).
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

struct fdr_patch_select *fdr__patch_select_new(const char *patterns)
{
	struct fdr_patch_select *s = calloc(1, sizeof(*s));

	for (const char *p = patterns; s && *p; p += strcspn(p, "\n") + !!p[strcspn(p, "\n")]) {
		size_t len = strcspn(p, "\n");

		if (len && add(s, p, len)) {
			fdr__patch_select_free(s);
			return NULL;
		}
	}
	return s;
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
