// SPDX-License-Identifier: MIT
/*
 * info_read.c - DIR/info's lines as (key, value) pairs, values unescaped
 * (info_file.c's grammar).  The file is the user's: a line too long is
 * cut, a line without a tab skipped, nothing else trusted here.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>

#include "record.h"

static void unescape(char *s)
{
	char *d = s;

	for (; *s; s++) {
		if (*s == '\\' && s[1]) {
			s++;
			*d++ = *s == 't' ? '\t' : *s == 'n' ? '\n' : *s;
		} else {
			*d++ = *s;
		}
	}
	*d = 0;
}

int fdr__info_read(const char *dir, int (*fn)(const char *key, const char *value, void *arg),
		   void *arg)
{
	char path[PATH_MAX + 16], line[PATH_MAX * 2];
	int r = 0;
	FILE *f;

	snprintf(path, sizeof(path), "%s/" FDR_INFO_NAME, dir);
	f = fopen(path, "re");
	if (!f)
		return -1;
	while (!r && fgets(line, sizeof(line), f)) {
		char *tab = strchr(line, '\t');

		line[strcspn(line, "\n")] = 0;
		if (!tab)
			continue;
		*tab++ = 0;
		unescape(tab);
		r = fn(line, tab, arg);
	}
	fclose(f);
	return r;
}
