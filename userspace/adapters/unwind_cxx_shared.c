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

#include <linux/fdr.h>
#include "plt_hook.h"
#include "unwind_cxx.h"

const char fdr_xray_cxx_link[] = "fdr-xray-cxx";

typedef void (*throw_fn)(void *, void *, void (*)(void *));
typedef void (*rethrow_fn)(void);

/* The definition of name after ours, looked up once (every thread
 * stores the same value in *cache). */
__FDR_NO_INSTRUMENT static void *real(void **cache, const char *name)
{
	void *fn = __atomic_load_n(cache, __ATOMIC_RELAXED);

	if (fn)
		return fn;
	fn = dlsym(RTLD_NEXT, name);
	if (!fn) {	/* no C++ runtime after us: nothing can throw */
		fprintf(stderr, "fdr xray mode: %s not found after the "
			"program (%s)\n", name, dlerror());
		abort();
	}
	__atomic_store_n(cache, fn, __ATOMIC_RELAXED);
	return fn;
}

__FDR_NO_INSTRUMENT __attribute__((noreturn))
void __cxa_throw(void *obj, void *tinfo, void (*dest)(void *))
{
	static void *next;
	throw_fn fn = (throw_fn)real(&next, "__cxa_throw");

	fdr__plt_unhook_returns();	/* hooked library calls: real returns,
					 * for the walk and the search */
	fdr__unwind_cxx_throwing(obj);
	fn(obj, tinfo, dest);
	__builtin_unreachable();
}

__FDR_NO_INSTRUMENT __attribute__((noreturn)) void __cxa_rethrow(void)
{
	static void *next;
	rethrow_fn fn = (rethrow_fn)real(&next, "__cxa_rethrow");

	fdr__plt_unhook_returns();
	fdr__unwind_cxx_throwing(NULL);
	fn();
	__builtin_unreachable();
}
