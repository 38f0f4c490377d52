// SPDX-License-Identifier: MIT
/*
 * xray_hello.c - a program that knows nothing about tracing.
 *
 *   clang-19 -O2 -fxray-instrument -fxray-instruction-threshold=1 \
 *       xray_hello.c build/adapters/libfdr-xray.a build/lib/libfdr.a -lpthread
 *   fdrctl init --embedded demo
 *   XRAY_OPTIONS="patch_premain=true xray_mode=fdr" \
 *       FDR_TARGET=embedded:demo ./xray_hello 20
 *   fdrctl --embedded demo finalize     (then fdrd writes the log)
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
