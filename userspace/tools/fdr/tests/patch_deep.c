// SPDX-License-Identifier: MIT
/*
 * patch_deep.c - a patched function deeper than the shadow stack
 * (patch_test.sh): deep() recurses DEPTH levels, four of its ten integer
 * arguments and its double on the stack or in xmm0, each level's result
 * depending on all of them.  The shadow stack takes the outermost 512
 * calls of each run; the deeper ones run through the trampoline's other
 * way (the function jumped to with its caller's return address in place),
 * so they must neither record nor change a result.  Prints the sums.
 */
#include <stdio.h>
#include <stdlib.h>

#define NOINLINE __attribute__((noinline))

NOINLINE long deep(int d, long a, long b, long c, long e, long f, long g, long h,
		   long i, long j, double x);

NOINLINE long deep(int d, long a, long b, long c, long e, long f, long g, long h,
		   long i, long j, double x)
{
	long r;

	if (d == 0)
		return a + 2 * b + 3 * c + 5 * e + 7 * f + 11 * g + 13 * h + 17 * i + 19 * j +
		       (long)x;
	r = deep(d - 1, b, c, e, f, g, h, i, j, a + d, x + 0.5);
	__asm__ volatile("" : "+r"(r));	/* not a tail call */
	return r * 3 + j - d;
}

int main(int argc, char **argv)
{
	int depth = argc > 1 ? atoi(argv[1]) : 2000;

	for (int k = 0; k < 3; k++)
		printf("%ld\n", deep(depth, k, 1, 2, 3, 4, 5, 6, 7, 8, 0.25 * k));
	return 0;
}
