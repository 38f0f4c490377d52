// SPDX-License-Identifier: MIT
/*
 * dl_wrap.c - the program's dlopen() and dlclose() (fdr-cc links a
 * dynamic program with --wrap=dlopen,--wrap=dlclose; linked only when
 * the program calls them): what they load or unload is seen before they
 * return (dl_lib.c).  The wrapper is in the executable, which is the
 * caller glibc sees either way, so $ORIGIN and RUNPATH resolve as
 * without it.
 */
#include <linux/fdr.h>
#include "dl_lib.h"

void *__wrap_dlopen(const char *file, int mode);
int __wrap_dlclose(void *handle);

__FDR_NO_INSTRUMENT void *__wrap_dlopen(const char *file, int mode)
{
	return fdr__dl_open(file, mode);
}

__FDR_NO_INSTRUMENT int __wrap_dlclose(void *handle)
{
	return fdr__dl_close(handle);
}
