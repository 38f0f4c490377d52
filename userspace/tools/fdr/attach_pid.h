/* SPDX-License-Identifier: MIT */
/*
 * attach_pid.h - start and stop recording in a running program through
 * its fdr_attach_entry() (adapters/attach_entry.c), for `fdr record -p`.
 */
#ifndef FDR_ATTACH_PID_H
#define FDR_ATTACH_PID_H

#include <stdint.h>
#include <sys/types.h>

struct attached {
	pid_t pid;
	uint64_t entry;		/* fdr_attach_entry in the process */
	unsigned threads;	/* at the attach */
	long functions;		/* patched */
};

/* Find fdr_attach_entry in pid (elf_entry, attach_entry: the ELF values
 * of the program) and make it run "start ..." (cmd).  0 or the exit
 * status after a message. */
int fdr__attach_start(struct attached *a, pid_t pid, uint64_t elf_entry,
		      uint64_t attach_entry, const char *cmd);
/* "stop", then, with every thread stopped and outside a record, "unmap".
 * 0, or the exit status after a message (-ESRCH: exited is 0). */
int fdr__attach_stop(struct attached *a);

#endif
