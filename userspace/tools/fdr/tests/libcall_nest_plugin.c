// SPDX-License-Identifier: MIT
/* libcall_nest_plugin.c - dlopen()ed by libcall_nest_prog.c and called
 * through dlsym(): its own calls (into libcall_nest_b.c and libc) are
 * what --nest-libcall records of it. */
#include <stdlib.h>
#include <string.h>

int nest_b_len(const char *s);
int nest_b_abs(int v);

int plugin_run(const char *s)
{
	char *copy = strdup(s);
	int n = nest_b_len(copy) + nest_b_abs(-3);

	free(copy);
	return n;
}
