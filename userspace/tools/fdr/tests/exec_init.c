// SPDX-License-Identifier: MIT
/*
 * exec_init.c - functions that run before main (exec_test.sh): one from
 * .preinit_array, one from a constructor.  volatile: so that the compiler
 * keeps the calls.
 */
#include <stdio.h>

static volatile int seen;

__attribute__((noinline)) void preinit_work(void)
{
	seen += 1;
}

__attribute__((noinline)) void ctor_work(void)
{
	seen += 10;
}

static void (*const preinit_entry)(void) __attribute__((section(".preinit_array"), used)) =
	preinit_work;

__attribute__((constructor)) static void init_ctor(void)
{
	ctor_work();
}

int main(void)
{
	printf("seen %d\n", seen);
	return 0;
}
