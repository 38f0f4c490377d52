// SPDX-License-Identifier: MIT
/*
 * libcall_args.c - library calls whose arguments and return values fdr
 * record -A/-R logs in a program not built with fdr-cc (libcall_test.sh):
 * it prints each call as fdr replay shows it (built with -fno-builtin, so
 * that abs() stays a call).
 */
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv)
{
	const char *v = getenv("FDR_TEST_VALUE");
	const char *none = getenv("FDR_TEST_NO_SUCH_VARIABLE");
	int a = abs(-42 - (argc - 1));
	double d = strtod("-2.5", NULL);

	(void)argv;
	printf("getenv(\"FDR_TEST_VALUE\") = \"%s\"\n", v ? v : "?");
	printf("getenv(\"FDR_TEST_NO_SUCH_VARIABLE\") = %s\n", none ? none : "NULL");
	printf("abs(%d) = %d\n", -42 - (argc - 1), a);
	printf("strtod(\"-2.5\") = %g\n", d);	/* its 2nd argument not logged */
	/* the calls after the first take the hooks' fast path (no -R) */
	static const long xs[] = { -5, 1L << 40, -(1L << 62), 0x7fffffffffffffffL };

	for (unsigned i = 0; i < sizeof(xs) / sizeof(xs[0]); i++)
		if (labs(xs[i]) >= 0)
			printf("labs(%ld)\n", xs[i]);
	return 0;
}
