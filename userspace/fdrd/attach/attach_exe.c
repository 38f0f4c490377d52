// SPDX-License-Identifier: MIT
/*
 * attach_exe.c - which program a process runs, and whether it can be
 * attached to (attach_pid.h): the checks `fdr record -p` and fdrd make
 * before any ptrace call, with the messages that say what to do.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "attach_pid.h"
#include "msg.h"

int fdr__attach_exe(pid_t pid, char *exe, size_t size)
{
	char link[64];
	ssize_t n;
	int r;

	snprintf(link, sizeof(link), "/proc/%d/exe", (int)pid);
	n = readlink(link, exe, size - 1);
	if (n < 0) {
		r = errno;
		msg_error("process %d: %s", (int)pid, r == ENOENT ? "no such process" :
			  r == EACCES || r == EPERM ? "not yours to record (only who may "
			  "ptrace it may: the same user, or CAP_SYS_PTRACE)" : strerror(r));
		return -1;
	}
	exe[n] = 0;
	return 0;
}

bool fdr__attach_can(pid_t pid, const char *exe, const struct fdr_elf_info *elf)
{
	if ((elf->instr == FDR_INSTR_XRAY || elf->instr == FDR_INSTR_CYG ||
	     elf->instr == FDR_INSTR_PATCHABLE) &&
	    elf->attach_entry)
		return true;
	msg_error("process %d (%s) cannot be attached to: it was not built by an "
		  "fdr-cc that can attach (XRay, --gcc or --patchable mode, fdr_attach_entry); "
		  "rebuild it with this fdr's fdr-cc", (int)pid, exe);
	return false;
}
