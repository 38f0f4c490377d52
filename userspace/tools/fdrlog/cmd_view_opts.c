// SPDX-License-Identifier: MIT
/* cmd_view_opts.c - the options replay, flame and convert share (commands.h). */
#include <stdio.h>
#include "commands.h"

int cmd_view_option(int c, const char *arg, const char *cmd, struct view_opts *v)
{
	char who[64];
	int r;

	snprintf(who, sizeof(who), "fdr %s", cmd);
	r = filter_opts_option(&v->filter, c, arg, who);
	if (r != 1)
		return r;
	switch (c) {
	case 'm': v->syms.instr_map = arg; return 0;
	case 's': return add_sym_map(cmd, &v->syms, arg) ? 2 : 0;
	case OPT_THREADS: v->threads.path = arg; return 0;
	case OPT_NO_THREADS: v->threads.disabled = 1; return 0;
	default: return 1;
	}
}
