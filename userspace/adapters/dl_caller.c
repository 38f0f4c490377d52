// SPDX-License-Identifier: MIT
/*
 * dl_caller.c - a bare name a library dlopen()s, looked up along that
 * library's search list, for fdr's dlopen wrappers (dl_caller.h).
 *
 * glibc looks a bare name up along the RPATH/RUNPATH of the object whose
 * code called dlopen(), found by the return address; a wrapper of fdr's
 * calls the real dlopen() from fdr's code (libfdr-plt.so's, or the
 * executable for an fdr-cc build), which glibc takes for the program's.
 * So the wrapper asks the loader for the library's own list (its RPATH,
 * LD_LIBRARY_PATH, its RUNPATH: dlinfo RTLD_DI_SERINFO) and passes the
 * path found there; glibc's cache and default directories, and the
 * program's RUNPATH, take a name found nowhere on it.
 */
#include <dlfcn.h>
#include <link.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "dl_caller.h"

const char *fdr__dl_as_caller(const void *caller, const char *file, char *path, size_t size)
{
	struct link_map *lm = NULL;
	Dl_serinfo sz, *si;
	Dl_info di;

	if (!file || strchr(file, '/') || !dladdr1(caller, &di, (void **)&lm, RTLD_DL_LINKMAP) ||
	    !lm || !lm->l_name[0] || dlinfo(lm, RTLD_DI_SERINFOSIZE, &sz) ||
	    !(si = malloc(sz.dls_size)))
		return file;
	*si = sz;
	if (!dlinfo(lm, RTLD_DI_SERINFO, si))
		for (unsigned i = 0; i < si->dls_cnt; i++)
			if (snprintf(path, size, "%s/%s", si->dls_serpath[i].dls_name, file) <
			    (int)size && !access(path, F_OK)) {
				free(si);
				return path;
			}
	free(si);
	return file;
}
