// SPDX-License-Identifier: MIT
/*
 * patch_libs_plug.c - built twice, plain: libpatchplug.so (-DPLUG), which
 * patch_libs_prog dlopen()s, calls, dlclose()s and dlopen()s again, and
 * libpatchdeep.so, which libpatchown.so dlopen()s.
 */
#include "patch_libs.h"

#ifdef PLUG
#define LEAF	plug_leaf
#define REC	plug_rec
#define ENTRY	plug_entry
#define C_LEAF	C_PLUG_LEAF
#define C_REC	C_PLUG_REC
#define C_ENTRY	C_PLUG_ENTRY
#else
#define LEAF	deep_leaf
#define ENTRY	deep_entry
#define C_LEAF	C_DEEP_LEAF
#define C_ENTRY	C_DEEP_ENTRY
#endif

__attribute__((noinline)) int LEAF(int x)
{
	counts[C_LEAF]++;
	return x * 3 + 2;
}

#ifdef PLUG
/* Recursion through a pointer: -O2 would turn one of the calls into a
 * loop, which counts more than it calls. */
static int REC(int n);
static int (*volatile rec_ptr)(int) = REC;

static __attribute__((noinline)) int REC(int n)
{
	counts[C_REC]++;
	return n <= 1 ? n : rec_ptr(n - 1) + rec_ptr(n - 2);
}
#endif

__attribute__((noinline)) int ENTRY(int x)
{
	counts[C_ENTRY]++;
#ifdef PLUG
	return LEAF(x) + LEAF(x + 1) + REC(x & 15);
#else
	return LEAF(x) - 1;
#endif
}
