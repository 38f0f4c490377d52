// SPDX-License-Identifier: MIT
/*
 * auto_args_none.c - `fdr record -a` in the static fdr of the VM, which
 * is linked without libdw (auto_args.c reads DWARF with it): refused,
 * saying what does work.
 */
#include <stdio.h>
#include "record.h"

int fdr__auto_args(const struct prog *p, const struct symbols *syms, struct arg_specs *out)
{
	(void)syms;
	(void)out;
	fprintf(stderr, "fdr record: -a: this fdr was built without libdw and cannot read "
		"the DWARF of %s; give the arguments with -A FUNC@SPEC, or use an fdr "
		"linked with libdw\n", p->path);
	return FDR_EXIT_FAILED;
}

int fdr__auto_args_path(const char *path, const struct symbols *syms, struct arg_specs *out,
			bool quiet)
{
	(void)syms;
	(void)out;
	if (!quiet)
		fprintf(stderr, "fdr record: -a: this fdr was built without libdw and cannot "
			"read the DWARF of %s\n", path);
	return FDR_EXIT_FAILED;
}
