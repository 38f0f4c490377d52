#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""gen_funcs.py N: a C program of N small noinline functions on stdout,
bench/attach's "program with 20,000 functions" (fdr record -p patches
every one of them).  main(SECONDS) calls all of them in turn, through a
table, until SECONDS have passed: attached or not, every function runs."""
import sys

n = int(sys.argv[1])
out = ["#include <stdlib.h>", "#include <time.h>", ""]
for i in range(n):
    out.append("__attribute__((noinline)) unsigned long f%d(unsigned long x) "
               "{ return x * 2654435761u + %d; }" % (i, i))
out.append("")
out.append("static unsigned long (*const table[])(unsigned long) = {")
out += ["\tf%d," % i for i in range(n)]
out.append("};")
out.append("""
static double now(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

int main(int argc, char **argv)
{
	double end = now() + (argc > 1 ? atof(argv[1]) : 10);
	unsigned long x = 1;

	while (now() < end)
		for (size_t i = 0; i < sizeof(table) / sizeof(table[0]); i++)
			x = table[i](x);
	return x == 0;	/* keeps the calls */
}""")
sys.stdout.write("\n".join(out) + "\n")
