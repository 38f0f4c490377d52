/* SPDX-License-Identifier: MIT */
/*
 * dl_lib.h - dlopen() and dlclose() in a program built with fdr-cc (a
 * dynamic link), whoever calls them (dl_lib.c).
 */
#ifndef FDR_DL_LIB_H
#define FDR_DL_LIB_H

/* The real dlopen(), dlclose(); then the sleds of what was loaded are
 * patched and, under --nest-libcall, its GOT hooked; what was unloaded
 * is forgotten.  errno as the real call left it. */
void *fdr__dl_open(const char *file, int mode);
int fdr__dl_close(void *handle);

/* A library's call, through its hooked GOT entry (--nest-libcall,
 * plt_self.c routes them here): the same, a bare name looked up along the
 * library's own search list first. */
void *fdr__dl_lib_dlopen(const char *file, int mode);
int fdr__dl_lib_dlclose(void *handle);

#endif /* FDR_DL_LIB_H */
