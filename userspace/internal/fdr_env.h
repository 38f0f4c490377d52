/* SPDX-License-Identifier: MIT */
/*
 * fdr_env.h - the variables fdr reads from the traced program's
 * environment (FDR_TARGET, FDR_OPTIONS, FDR_SYMDIR), for libfdr and the
 * adapters linked with it.
 */
#ifndef FDR_ENV_H
#define FDR_ENV_H

/*
 * The value of name, or NULL.  Works before libc has set up environ: an
 * instrumented function in a dynamically linked program's .preinit_array
 * runs first, and its hooks attach; the process's initial environment is
 * then read from /proc/self/environ (once, bounded).  As secure_getenv(),
 * NULL in a set-user-ID, set-group-ID or capability-raised program
 * (AT_SECURE): whoever runs it must not point it at a region.
 */
const char *fdr__env(const char *name);

/* The real path of the program fdr record started (adapters/prog_image.h). */
#define FDR_PROG_ENV	"FDR_PROG"

#endif /* FDR_ENV_H */
