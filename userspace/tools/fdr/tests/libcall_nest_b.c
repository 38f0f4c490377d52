// SPDX-License-Identifier: MIT
/* libcall_nest_b.c - the inner library of libcall_nest_test.sh: called by
 * libcall_nest_a.c and by the plugin, calls libc. */
#include <stdlib.h>
#include <string.h>

int nest_b_len(const char *s)
{
	return (int)strlen(s);
}

int nest_b_abs(int v)
{
	return abs(v);
}
