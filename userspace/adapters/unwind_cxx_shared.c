// SPDX-License-Identifier: MIT
/*
 * unwind_cxx_shared.c - see the throws of a dynamic link by interposing
 * __cxa_throw and __cxa_rethrow: the executable's definitions, exported,
 * come first for the program and for libstdc++.so alike; the real ones
 * are the next in the lookup order.  Its own archive, libfdr-xray-cxx.a:
 * in a static link it would stand in for the real ones.  fdr-c++ links
 * it with --undefined=fdr_xray_cxx_link and exports both symbols.
 */
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>

#include "hook_attrs.h"
#include "unwind_cxx.h"

const char fdr_xray_cxx_link[] = "fdr-xray-cxx";

typedef void (*throw_fn)(void *, void *, void (*)(void *));
typedef void (*rethrow_fn)(void);

FDR_HOOK static void *real(const char *name)
{
	void *fn = dlsym(RTLD_NEXT, name);

	if (!fn) {	/* no C++ runtime after us: nothing can throw */
		fprintf(stderr, "fdr xray mode: %s not found after the "
			"program (%s)\n", name, dlerror());
		abort();
	}
	return fn;
}

FDR_HOOK __attribute__((noreturn))
void __cxa_throw(void *obj, void *tinfo, void (*dest)(void *))
{
	static throw_fn next;	/* every thread stores the same value */
	throw_fn fn = __atomic_load_n(&next, __ATOMIC_RELAXED);

	if (!fn) {
		fn = (throw_fn)real("__cxa_throw");
		__atomic_store_n(&next, fn, __ATOMIC_RELAXED);
	}
	fdr_unwind_cxx_throwing(obj);
	fn(obj, tinfo, dest);
	__builtin_unreachable();
}

FDR_HOOK __attribute__((noreturn)) void __cxa_rethrow(void)
{
	static rethrow_fn next;
	rethrow_fn fn = __atomic_load_n(&next, __ATOMIC_RELAXED);

	if (!fn) {
		fn = (rethrow_fn)real("__cxa_rethrow");
		__atomic_store_n(&next, fn, __ATOMIC_RELAXED);
	}
	fdr_unwind_cxx_throwing(NULL);
	fn();
	__builtin_unreachable();
}
