// SPDX-License-Identifier: MIT
/*
 * plt_skip.c - library functions whose calls are never hooked.
 *
 * A function that returns twice (setjmp, vfork, getcontext) would
 * return a second time through a shadow-stack entry already used, or,
 * for vfork, the child would rewrite the parent's stack and thread
 * state; uftrace leaves them alone too.  __libc_start_main is called
 * once, before main, and never returns: hooking it would make the whole
 * program one unfinished call.  _Unwind_Resume (a landing pad's, after
 * its cleanups) and __cxa_rethrow go on unwinding from their caller's
 * frame, found by their own return address, which a hook would replace
 * (and they never return).  __tls_get_addr is the loader's helper that
 * a library's TLS accesses call (--nest-libcall would see it): not a
 * call of the program's.  Nor are __cyg_profile_func_enter and _exit,
 * which a library built with -finstrument-functions (fdr-cc --gcc)
 * calls around each of its functions: the recorder's own hooks, which
 * record those functions themselves (uftrace leaves them alone too).
 *
 * dlsym and dlvsym find RTLD_NEXT and RTLD_DEFAULT relative to the object
 * their return address lies in: a hooked return address (fdr__plt_return,
 * in fdr's code) would make a library's dlsym(RTLD_NEXT, "malloc") find
 * the library's own malloc again.  They are recorded, but as a call that
 * ends where it begins (plt_shadow.c), their return address untouched.
 */
#include <stdbool.h>
#include <string.h>

#include "plt_hook.h"

static const char *const skipped[] = {
	"setjmp", "_setjmp", "__sigsetjmp", "sigsetjmp", "savectx",
	"vfork", "__vfork", "getcontext", "swapcontext",
	"__libc_start_main", "__gmon_start__", "_Unwind_Resume", "__cxa_rethrow",
	"__tls_get_addr", "__cyg_profile_func_enter", "__cyg_profile_func_exit",
};

static const char *const keep_return[] = { "dlsym", "dlvsym" };

bool fdr__plt_skip(const char *name)
{
	for (size_t i = 0; i < sizeof(skipped) / sizeof(skipped[0]); i++)
		if (!strcmp(name, skipped[i]))
			return true;
	return false;
}

bool fdr__plt_keeps_return(const char *name)
{
	for (size_t i = 0; i < sizeof(keep_return) / sizeof(keep_return[0]); i++)
		if (!strcmp(name, keep_return[i]))
			return true;
	return false;
}
