// SPDX-License-Identifier: MIT
/*
 * args_lib.c - a shared library function whose arguments and return
 * value fdr record -A/-R logs (args_test.sh), built twice by fdr-cc:
 * ARGS_FN=lib_mix, linked by args_dso.c, and ARGS_FN=plug_mix, which it
 * dlopen()s.  It prints them itself, as fdr replay shows them.
 */
#include <stdio.h>

#ifndef ARGS_FN
#define ARGS_FN lib_mix
#endif
#define STR_(x) #x
#define STR(x) STR_(x)

__attribute__((noinline)) double ARGS_FN(int n, const char *s, double d)
{
	printf("%s(%d, \"%s\", %g) = %g\n", STR(ARGS_FN), n, s, d, n * d);
	return n * d;
}
