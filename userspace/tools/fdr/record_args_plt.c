// SPDX-License-Identifier: MIT
/*
 * record_args_plt.c - the ids of the library calls -A/-R named, after
 * the run: libfdr-plt.so names each call it hooks in a sym-map of DIR,
 * fdr-syms.<pid>.map ("<fid> TAB <name> TAB <module> TAB <address>"),
 * by the name the program imports it by, which is what -A/-R name
 * (userspace/adapters/plt_args.c matched the same name).  Each line is
 * checked: a process wrote it.
 */
#include <glob.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "record.h"

/* One "<fid>\t<name>\t..." line: its spec, if named has one. */
static int take_line(char *line, const struct named_specs *named, struct arg_specs *out)
{
	char *tab = strchr(line, '\t'), *end, *name_end;
	const struct arg_spec *s;
	long fid;

	if (line[0] == '#' || !tab)
		return 0;
	fid = strtol(line, &end, 10);
	if (end != tab || fid <= 0 || fid >= (1L << 28))
		return 0;
	name_end = strchr(tab + 1, '\t');
	if (!name_end)
		return 0;
	*name_end = 0;
	s = fdr__named_specs_find(named, tab + 1);
	if (!s || arg_specs_find(out, (int32_t)fid))
		return 0;
	return arg_specs_merge(out, (int32_t)fid, s);
}

int fdr__libcall_args(const char *dir, const struct named_specs *named, struct arg_specs *out)
{
	char pat[PATH_MAX + 32], line[PATH_MAX + 1200];
	int r = 0;
	glob_t g;

	if (!named->n)
		return 0;
	snprintf(pat, sizeof(pat), "%s/fdr-syms.[0-9]*.map", dir);
	if (glob(pat, 0, NULL, &g))
		return 0;	/* no call was hooked */
	for (size_t i = 0; i < g.gl_pathc && !r; i++) {
		FILE *f = fopen(g.gl_pathv[i], "re");

		while (f && !r && fgets(line, sizeof(line), f))
			r = take_line(line, named, out);
		if (f)
			fclose(f);
	}
	globfree(&g);
	if (r)
		fprintf(stderr, "fdr record: -A/-R: out of memory\n");
	return r ? FDR_EXIT_FAILED : 0;
}
