// SPDX-License-Identifier: MIT
/*
 * plt_unwind.c - C++ exceptions through hooked library calls.
 *
 * The unwinder finds each frame's caller by its return address, and a
 * hooked call's is fdr__plt_return, which has no unwind table.  So
 * libfdr-plt.so interposes _Unwind_RaiseException (libstdc++'s
 * __cxa_throw calls it through its PLT, and a preloaded library comes
 * first in the lookup): every pending call gets its real return address
 * back before the search starts.  __cxa_begin_catch, which the catching
 * frame calls first, closes the calls the exception left (their frames
 * are below the catcher's stack pointer) and hooks the others again:
 * when the executable calls it, its hook does that before recording the
 * call (plt_shadow.c); when a library catches, the interposer below does,
 * sparing the return slot of the call to itself (which holds the
 * catcher's return address, or fdr__plt_return when hooked).  A
 * rethrow unwinds from the catcher, whose own return may be hooked again
 * by then (a patched function, patch_hook.h), and libgcc raises it
 * without going through the interposed _Unwind_RaiseException: so
 * __cxa_rethrow is interposed too.
 */
#include <dlfcn.h>
#include <stdint.h>

#include "plt_hook.h"

typedef int (*raise_fn)(void *);
typedef void *(*begin_catch_fn)(void *);
typedef void (*rethrow_fn)(void);

__attribute__((visibility("default"))) int _Unwind_RaiseException(void *exc)
{
	static raise_fn real;

	if (!real)
		real = (raise_fn)dlsym(RTLD_NEXT, "_Unwind_RaiseException");
	fdr__plt_unhook_returns();
	return real(exc);
}

__attribute__((visibility("default"))) void *__cxa_begin_catch(void *exc)
{
	static begin_catch_fn real;
	/* our own return slot: the catcher's calls below it are over */
	uintptr_t slot = (uintptr_t)__builtin_frame_address(0) + sizeof(void *);

	if (!real)
		real = (begin_catch_fn)dlsym(RTLD_NEXT, "__cxa_begin_catch");
	fdr__plt_rehook_returns(slot);
	return real(exc);
}

__attribute__((visibility("default"), noreturn)) void __cxa_rethrow(void)
{
	static rethrow_fn real;

	if (!real)
		real = (rethrow_fn)dlsym(RTLD_NEXT, "__cxa_rethrow");
	fdr__plt_unhook_returns();
	real();
	__builtin_unreachable();
}
