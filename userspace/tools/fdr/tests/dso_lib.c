// SPDX-License-Identifier: MIT
/* dso_lib.c - a shared library built by fdr-cc, linked by dso_main.c. */
#include <unistd.h>

__attribute__((noinline)) int dso_lib_leaf(int x)
{
	__asm__ volatile("" : "+r"(x));
	return x + 1;
}

__attribute__((noinline)) int dso_lib_work(int n)
{
	int s = 0;

	for (int i = 0; i < n; i++)
		s += dso_lib_leaf(i);
	return s;
}

/* Long enough to pass any threshold: 1 ms asleep. */
__attribute__((noinline)) int dso_lib_slow(void)
{
	return usleep(1000) + 1;	/* not a tail call: the sleep is inside */
}
