// SPDX-License-Identifier: MIT
/*
 * crash_cyg.c - an ordinary program built with -finstrument-functions and
 * linked with libfdr-cyg.a: no tracing code.  It calls leaf() LEAF_CALLS
 * times through work(), then dies from SIGSEGV inside crashes_here().
 * crash.c runs it and expects the log to end, for this thread, with the
 * Enter of crashes_here (named by the sym-map the hooks write).
 */
#include <sys/mman.h>

#define LEAF_CALLS	200

static int *guard;	/* PROT_NONE: the store faults, no UB */

__attribute__((noinline)) int leaf(int x)
{
	__asm__ volatile("" : "+r"(x));
	return x + 1;
}

__attribute__((noinline)) int work(void)
{
	int s = 0;

	for (int i = 0; i < LEAF_CALLS; i++)
		s = leaf(s);
	return s;
}

__attribute__((noinline)) void crashes_here(int v)
{
	*guard = v;
}

int main(void)
{
	guard = mmap(0, 4096, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	crashes_here(work());
	return 0;
}
