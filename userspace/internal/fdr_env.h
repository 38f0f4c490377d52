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

/*
 * A program that runs another with an environment of its own (execve()
 * or posix_spawn() with envp = {NULL}, env -i) drops fdr's variables.
 * fdr record also leaves them, "NAME=value" strings each ended by a NUL,
 * in a memfd named FDR_ENV_MEMFD open without close-on-exec at descriptor
 * FDR_ENV_FD, which every descendant inherits unless it closes it;
 * fdr__env() reads a variable from there when the environment lacks it
 * (Documentation/integrations.md, "Programs that PROG runs").
 */
#define FDR_ENV_FD	1023
#define FDR_ENV_MEMFD	"fdr-env"

/* The real path of the program fdr record started (adapters/prog_image.h). */
#define FDR_PROG_ENV	"FDR_PROG"

#endif /* FDR_ENV_H */
