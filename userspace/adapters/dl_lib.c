// SPDX-License-Identifier: MIT
/*
 * dl_lib.c - dlopen() and dlclose() in a program built with fdr-cc, XRay
 * or --gcc (dl_lib.h): a library loaded later gets its XRay sleds
 * patched (xray_dso.c) and, with --nest-libcall, its GOT hooked
 * (plt_self.c) before dlopen() returns; one unloaded is forgotten, so
 * that its address and its ids may be used again.
 *
 * The program's own calls come from its --wrap wrappers (dl_wrap.c).  A
 * library's reach fdr__dl_lib_dlopen and fdr__dl_lib_dlclose under
 * --nest-libcall: its hooked GOT entries of dlopen and dlclose call them
 * (plt_got.c, fdr__plt_route_dl), so a library that another dlopen()s
 * is hooked before that dlopen() returns, its first calls recorded, at no
 * cost to any other call.  (Not a dl_iterate_phdr() generation check on
 * each recorded call: it would take the loader's lock on every call, and
 * still miss the new library's first calls, which go through its own
 * GOT, not hooked yet.)  Without --nest-libcall a library's calls are
 * left alone: the sleds of a library that a library dlopen()s are
 * patched at the program's next dlopen() or dlclose().
 *
 * fdr-cc links this file into every dynamic program
 * (--undefined=fdr__dl_lib_dlopen), also one that never calls dlopen()
 * itself; dl_wrap.c only into one that does (fdr record reads
 * __wrap_dlopen's presence so: elf_info.c).  So the real functions are
 * called here as __real_dlopen and __real_dlclose (--wrap's names for
 * them), never by their own names, which --wrap would send to dl_wrap.c.
 */
#include <errno.h>
#include <limits.h>
#include <stdint.h>

#include <linux/fdr.h>
#include "dl_caller.h"
#include "dl_lib.h"
#include "plt_hook.h"

void *__real_dlopen(const char *file, int mode);
int __real_dlclose(void *handle);

/* xray_dso.h's: xray_dso.c is in the XRay archive only (an XRay build
 * links it at start-up); a --gcc build has no sleds to patch, and the
 * weak reference is null there. */
int fdr__xray_dso_scan(void) __attribute__((weak, visibility("hidden")));

__FDR_NO_INSTRUMENT static void scan_sleds(void)
{
	if (fdr__xray_dso_scan)
		fdr__xray_dso_scan();
}

__FDR_NO_INSTRUMENT void *fdr__dl_open(const char *file, int mode)
{
	void *h = __real_dlopen(file, mode);
	int saved = errno;

	if (h) {
		scan_sleds();
		fdr__plt_self_dlopen();
	}
	errno = saved;
	return h;
}

__FDR_NO_INSTRUMENT int fdr__dl_close(void *handle)
{
	int r = __real_dlclose(handle), saved = errno;

	scan_sleds();
	fdr__plt_self_dlclose();
	errno = saved;
	return r;
}

/* glibc looks a bare name up along the RUNPATH of the object whose code
 * called dlopen(), found by the return address: here the executable.
 * The call came through a hooked GOT entry, so the return address is
 * fdr__plt_return, the library's own on the shadow stack. */
__FDR_NO_INSTRUMENT void *fdr__dl_lib_dlopen(const char *file, int mode)
{
	const uintptr_t *slot = (const uintptr_t *)__builtin_frame_address(0) + 1;
	char path[PATH_MAX];

	file = fdr__dl_as_caller((const void *)fdr__plt_real_return(slot), file, path,
				 sizeof(path));
	return fdr__dl_open(file, mode);
}

__FDR_NO_INSTRUMENT int fdr__dl_lib_dlclose(void *handle)
{
	return fdr__dl_close(handle);
}
