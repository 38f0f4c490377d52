// SPDX-License-Identifier: MIT
/*
 * args_stack.c - functions with more arguments than registers: x86-64
 * passes integer arguments 7 on and floating-point ones 9 on on the
 * stack.  Each prints its arguments as fdr replay shows them
 * (args_test.sh: -A with arg7+ / fparg9+, and -a).
 */
#include <stdio.h>

__attribute__((noinline)) long nine(long a1, long a2, long a3, long a4, long a5, long a6,
				    long a7, long a8, long a9)
{
	long s = a1 + a2 + a3 + a4 + a5 + a6 + a7 + a8 + a9;

	printf("nine(%ld, %ld, %ld, %ld, %ld, %ld, %ld, %ld) = %ld\n", a2, a3, a4, a5, a6, a7, a8,
	       a9, s);
	return s;
}

__attribute__((noinline)) double tenf(double f1, double f2, double f3, double f4, double f5,
				      double f6, double f7, double f8, double f9, double f10)
{
	double s = f1 + f2 + f3 + f4 + f5 + f6 + f7 + f8 + f9 + f10;

	printf("tenf(%g, %g, %g) = %g\n", f1, f9, f10, s);
	return s;
}

/* Interleaved: the stack holds i7, d9, i8 in that order. */
__attribute__((noinline)) int mixed(int i1, int i2, int i3, int i4, int i5, int i6, double d1,
				    double d2, double d3, double d4, double d5, double d6,
				    double d7, double d8, int i7, double d9, int i8)
{
	/* every argument used: clang passes no value a callee ignores */
	int sum = i1 + i2 + i3 + i4 + i5 + i6 + i7 + i8 +
		  (int)(d1 + d2 + d3 + d4 + d5 + d6 + d7 + d8 + d9);

	printf("mixed(%d, %d, %g, %d) = %d\n", i1, i7, d9, i8, sum);
	return sum;
}

int main(int argc, char **argv)
{
	volatile long z = argc - 1;

	(void)argv;
	nine(1 + z, -2, 3, -4, 5, -6, -7 + z, 8, -9000000000L);
	tenf(0.5 + z, 1, 2, 3, 4, 5, 6, 7, -8.25, 1e10);
	mixed(-1, 2, 3, 4, 5, 6, 1, 2, 3, 4, 5, 6, 7, 8, -17 + (int)z, 2.5, 40);
	return 0;
}
