// SPDX-License-Identifier: MIT
/*
 * unwind_cxx_static.c - see the throws of a static link: fdr-c++ -static
 * links with --wrap=__cxa_throw,--wrap=__cxa_rethrow, which in a static
 * link also reroutes libstdc++.a's own throws here.
 */
#include <stddef.h>

#include <linux/fdr.h>
#include "unwind_cxx.h"

void __real___cxa_throw(void *obj, void *tinfo, void (*dest)(void *))
	__attribute__((noreturn));
void __real___cxa_rethrow(void) __attribute__((noreturn));

__FDR_NO_INSTRUMENT __attribute__((noreturn))
void __wrap___cxa_throw(void *obj, void *tinfo, void (*dest)(void *))
{
	fdr__unwind_cxx_throwing(obj);
	__real___cxa_throw(obj, tinfo, dest);
}

__FDR_NO_INSTRUMENT __attribute__((noreturn)) void __wrap___cxa_rethrow(void)
{
	fdr__unwind_cxx_throwing(NULL);
	__real___cxa_rethrow();
}
