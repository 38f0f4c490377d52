// SPDX-License-Identifier: MIT
/* dso_plug.c - a shared library built by fdr-cc, dlopen()ed by dso_main.c. */
#include <unistd.h>

__attribute__((noinline)) int plug_leaf(int x)
{
	__asm__ volatile("" : "+r"(x));
	return 3 * x;
}

__attribute__((noinline)) int plug_run(int n)
{
	int s = 0;

	for (int i = 0; i < n; i++)
		s += plug_leaf(i);
	return s;
}

__attribute__((noinline)) int plug_slow(void)
{
	return usleep(1000) + 1;	/* not a tail call: the sleep is inside */
}
