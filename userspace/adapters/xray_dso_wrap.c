// SPDX-License-Identifier: MIT
/*
 * xray_dso_wrap.c - the program's dlopen() and dlclose() (fdr-cc links
 * with --wrap=dlopen,--wrap=dlclose): a library loaded later gets its
 * sleds patched before dlopen() returns to the program; one unloaded is
 * forgotten, so that its address and its id may be used again.  With
 * --nest-libcall the same for its GOT's library calls (plt_self.c).
 *
 * --wrap reroutes the calls of the program's own objects only: a library
 * that dlopen()s another is seen at the program's next dlopen() or
 * dlclose().  The wrapper is in the executable, which is the caller glibc
 * sees either way, so $ORIGIN and RUNPATH resolve as without it.
 */
#include <errno.h>

#include <linux/fdr.h>
#include "plt_hook.h"
#include "xray_dso.h"

void *__real_dlopen(const char *file, int mode);
int __real_dlclose(void *handle);
void *__wrap_dlopen(const char *file, int mode);
int __wrap_dlclose(void *handle);

__FDR_NO_INSTRUMENT void *__wrap_dlopen(const char *file, int mode)
{
	void *h = __real_dlopen(file, mode);
	int saved = errno;

	if (h) {
		fdr__xray_dso_scan();
		fdr__plt_self_dlopen();
	}
	errno = saved;
	return h;
}

__FDR_NO_INSTRUMENT int __wrap_dlclose(void *handle)
{
	int r = __real_dlclose(handle), saved = errno;

	fdr__xray_dso_scan();
	fdr__plt_self_dlclose();
	errno = saved;
	return r;
}
