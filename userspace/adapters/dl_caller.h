/* SPDX-License-Identifier: MIT */
/*
 * dl_caller.h - a dlopen() made for another object (fdr's wrappers of
 * dlopen: patch_dlopen.c in libfdr-plt.so, dl_lib.c in fdr-cc builds).
 */
#ifndef FDR_DL_CALLER_H
#define FDR_DL_CALLER_H

#include <stddef.h>

/* dl_caller.c: the file a dlopen(file) made by the object holding
 * caller (a code address) should open, when fdr's code, not that object,
 * calls the real dlopen(): a bare name is looked up along that object's
 * search list (path, size bytes, when a file is there), else file is
 * given back unchanged (a path, the executable's call, nothing found:
 * glibc's own search decides, as for the executable). */
const char *fdr__dl_as_caller(const void *caller, const char *file, char *path, size_t size);

#endif /* FDR_DL_CALLER_H */
