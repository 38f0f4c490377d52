// SPDX-License-Identifier: MIT
/*
 * libcall_gconv_ctor.c - a gconv module (iconv loads it with glibc's own
 * dlopen, under the loader's dl_load_lock) whose constructor calls
 * dlopen() itself, through the program's dlopen - libfdr-plt.so's
 * under fdr record.  It says it has started (the program's flag), so
 * that the program's main thread calls dlopen() while the constructor
 * holds the loader's lock, then waits a while before its own dlopen().
 */
#include <dlfcn.h>
#include <stdio.h>
#include <unistd.h>

extern volatile int libcall_ctor_started __attribute__((weak));

__attribute__((constructor)) static void ctor(void)
{
	void *h;

	if (&libcall_ctor_started)
		libcall_ctor_started = 1;
	usleep(300000);
	h = dlopen("libm.so.6", RTLD_NOW);
	fprintf(stderr, "constructor: dlopen %s\n", h ? "ok" : dlerror());
}

/* What iconv_open() looks up (it fails the conversion: not needed). */
int gconv(void)
{
	return 0;
}
