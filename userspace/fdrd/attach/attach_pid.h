/* SPDX-License-Identifier: MIT */
/*
 * attach_pid.h - start and stop recording in a running program through
 * its fdr_attach_entry() (adapters/attach_entry.c), for `fdr record -p`
 * and `fdrd --attach-pid`.  Messages go through msg.h (fdr and fdrd each
 * have theirs).
 */
#ifndef FDR_ATTACH_PID_H
#define FDR_ATTACH_PID_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "elf_info.h"

struct attached {
	pid_t pid;
	uint64_t entry;		/* fdr_attach_entry in the process */
	unsigned threads;	/* at the attach */
	long functions;		/* patched */
};

/* Find fdr_attach_entry in pid (elf: the program's ELF facts) and make
 * it run "start ..." (cmd); for an fdr-cc --patchable build, then
 * "stopped" with every thread stopped (the nop sites it could not patch
 * while they ran).  0, or -1 after a message. */
int fdr__attach_start(struct attached *a, pid_t pid, const struct fdr_elf_info *elf,
		      const char *cmd);
/* "stop", then, with every thread stopped and outside a record, "unmap".
 * 0 (also when it exited meanwhile), or -1 after a message. */
int fdr__attach_stop(struct attached *a);

/* attach_exe.c: the executable process pid runs, as a path (its name);
 * 0, or -1 after a message. */
int fdr__attach_exe(pid_t pid, char *exe, size_t size);
/* Was exe (elf: its facts) built to be attached to (fdr-cc, XRay or
 * --gcc, with fdr_attach_entry)?  If not, false after a message. */
bool fdr__attach_can(pid_t pid, const char *exe, const struct fdr_elf_info *elf);

#endif
