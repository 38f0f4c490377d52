// SPDX-License-Identifier: MIT
/*
 * small_stack.c - instrumented code on a 4 KiB stack (makecontext), as
 * coroutine libraries and green threads run it: the first calls of its
 * functions (the hooks' slow path), new buffers and the latency trigger's
 * general path all happen there.  A guard page under the stack turns an
 * overflow into SIGSEGV.  Prints the result of the work and how much of
 * the stack was used (its high-water mark); built both with
 * -finstrument-functions and with -fxray-instrument (small_stack_test).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <ucontext.h>
#include <unistd.h>

#define SMALL_STACK	4096
#define ROUNDS		20000
#define UNTOUCHED	0xa5

static ucontext_t main_ctx, small_ctx;
static long result;

__attribute__((noinline)) long leaf(long x)
{
	__asm__ volatile("" : "+r"(x));
	return x * 3 + 1;
}

__attribute__((noinline)) long middle(long x)
{
	return leaf(x) ^ leaf(x + 1);
}

__attribute__((noinline)) void on_small_stack(void)
{
	long acc = 0;

	for (long i = 0; i < ROUNDS; i++)
		acc += middle(i);
	result = acc;
}

int main(void)
{
	long page = sysconf(_SC_PAGESIZE);
	/* a guard page, then the stack */
	char *map = mmap(NULL, page + SMALL_STACK, PROT_READ | PROT_WRITE,
			 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (map == MAP_FAILED || mprotect(map, page, PROT_NONE)) {
		perror("small_stack: mmap");
		return 1;
	}
	memset(map + page, UNTOUCHED, SMALL_STACK);
	getcontext(&small_ctx);
	small_ctx.uc_stack.ss_sp = map + page;
	small_ctx.uc_stack.ss_size = SMALL_STACK;
	small_ctx.uc_link = &main_ctx;
	makecontext(&small_ctx, on_small_stack, 0);
	if (swapcontext(&main_ctx, &small_ctx)) {
		perror("small_stack: swapcontext");
		return 1;
	}
	size_t untouched = 0;

	while (untouched < SMALL_STACK && (unsigned char)map[page + untouched] == UNTOUCHED)
		untouched++;
	printf("small_stack: %ld, %zu bytes of stack used\n", result,
	       SMALL_STACK - untouched);
	return 0;
}
