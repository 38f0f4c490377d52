// SPDX-License-Identifier: MIT
/* libcall_nest_a.c - the outer library of libcall_nest_test.sh: the
 * program calls it, it calls libcall_nest_b.c's functions and libc's. */
#include <stdio.h>
#include <string.h>

int nest_b_len(const char *s);
int nest_b_abs(int v);

int nest_a_work(const char *s, int v)
{
	char buf[64];

	snprintf(buf, sizeof(buf), "%s:%d", s, nest_b_abs(v));
	return nest_b_len(buf) + nest_b_len(s);
}
