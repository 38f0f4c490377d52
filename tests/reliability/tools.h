/* SPDX-License-Identifier: MIT */
/*
 * tools.h - the other parts' programs the tests drive (fdrd, fdrlog,
 * llvm-xray-19): where they are, and running them.
 *
 * Paths come from the environment (FDRD, FDRLOG, LLVM_XRAY) - the
 * Makefile points them into build/ - else the VM's /bin, else $PATH.
 */
#ifndef REL_TOOLS_H
#define REL_TOOLS_H

#include <stdbool.h>
#include <sys/types.h>

struct tools {
	char fdrd[512];
	char fdrlog[512];	/* "" if not found */
	char xray[512];		/* "" if not found (the VM) */
};

void tools_find(struct tools *t);

/* fork + exec argv with stdout/stderr to errfile (or /dev/null); pid. */
pid_t tools_spawn(char *const argv[], const char *errfile);
/* Run argv to completion, at most timeout_s; its exit status, 128+sig
 * if killed, -1 if it could not run or timed out (then it is killed). */
int tools_run(char *const argv[], const char *errfile, int timeout_s);
/* Copy a file (the VM's logs to the host share); 0 or -errno. */
int tools_copy(const char *from, const char *to);
/* The first line of a file, for diagnostics ("" if none). */
void tools_first_line(const char *path, char *buf, size_t len);

#endif
