// SPDX-License-Identifier: MIT
/*
 * cyg_hello.c - the same program for GCC's -finstrument-functions.
 *
 *   gcc -O2 -finstrument-functions cyg_hello.c \
 *       build/adapters/libfdr-cyg.a build/lib/libfdr.a -lpthread
 *   fdrctl init --embedded demo
 *   FDR_TARGET=embedded:demo ./cyg_hello 20
 *   fdrctl --embedded demo finalize     (then fdrd writes the log)
 * Function ids are named in /tmp/fdr-syms.<pid>.map ($FDR_SYMDIR).
 */
#include <stdio.h>
#include <stdlib.h>

static long fib(int n)
{
	return n < 2 ? n : fib(n - 1) + fib(n - 2);
}

int main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 20;

	printf("fib(%d) = %ld\n", n, fib(n));
	return 0;
}
