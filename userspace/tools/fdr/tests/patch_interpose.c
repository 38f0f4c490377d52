// SPDX-License-Identifier: MIT
/*
 * patch_interpose.c - a program that defines malloc and free, which
 * libfdr-plt.so calls too: fdr record -P . must leave them alone (a
 * patched one entered the hook from inside the hook: a crash), and
 * patch the rest (patch_libs_test.sh).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

extern void *__libc_malloc(size_t size);
extern void __libc_free(void *p);

static unsigned long n;

void *malloc(size_t size)
{
	n++;
	return __libc_malloc(size);
}

void free(void *p)
{
	__libc_free(p);
}

__attribute__((noinline)) int work(int i)
{
	char *p = malloc(64 + i);
	int r;

	memset(p, i, 64);
	r = p[3];
	free(p);
	return r;
}

int main(void)
{
	long s = 0;

	for (int i = 0; i < 1000; i++)
		s += work(i);
	printf("%ld %d\n", s, n >= 1000);
	return 0;
}
