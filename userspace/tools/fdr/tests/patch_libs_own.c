// SPDX-License-Identifier: MIT
/*
 * patch_libs_own.c - libpatchown.so, the library patch_libs_prog links
 * (built plain, no fdr-cc): a leaf, a caller of it, a static recursive
 * function, and own_load, which dlopen()s libpatchdeep.so by its bare
 * name, found only along this library's own RUNPATH.
 */
#include <dlfcn.h>
#include <stdio.h>

#include "patch_libs.h"

__attribute__((noinline)) int own_leaf(int x)
{
	__atomic_fetch_add(&counts[C_OWN_LEAF], 1, __ATOMIC_RELAXED);
	return x * 7 + 1;
}

__attribute__((noinline)) int own_mid(int x)
{
	counts[C_OWN_MID]++;
	return own_leaf(x) ^ own_leaf(x + 1);
}

/* Recursion through a pointer: -O2 would turn a direct one into a loop,
 * which counts more than it calls. */
static int own_rec(int n);
static int (*volatile own_rec_ptr)(int) = own_rec;

static __attribute__((noinline)) int own_rec(int n)
{
	counts[C_OWN_REC]++;
	return n <= 0 ? 0 : own_rec_ptr(n - 1) + (n & 3);
}

__attribute__((noinline)) int own_api(int x)
{
	counts[C_OWN_API]++;
	return own_mid(x) + own_rec(x & 7);
}

/* deep_entry of libpatchdeep.so, loaded by bare name from here. */
__attribute__((noinline)) int own_load(int x)
{
	void *h;
	int (*f)(int), r = -1;

	counts[C_OWN_LOAD]++;
	h = dlopen("libpatchdeep.so", RTLD_NOW);
	if (!h) {
		fprintf(stderr, "own_load: %s\n", dlerror());
		return -1;
	}
	if ((f = (int (*)(int))dlsym(h, "deep_entry")))
		r = f(x);
	dlclose(h);
	return r;
}
