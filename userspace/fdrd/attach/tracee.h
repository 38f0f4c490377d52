/* SPDX-License-Identifier: MIT */
/*
 * tracee.h - the ptrace side of `fdr record -p`: stop a thread of a
 * running program, make it call a function of its own, put it back
 * exactly as it was (Documentation/integrations.md, "Recording a running
 * program").
 */
#ifndef FDR_TRACEE_H
#define FDR_TRACEE_H

#include <stdint.h>
#include <sys/types.h>
#include <sys/user.h>

struct tracee {
	pid_t tid;
	struct user_regs_struct regs;	/* as stopped */
};

/* Seize and stop thread tid.  0, -ESRCH (gone) or -errno (EPERM: not
 * ours to trace). */
int fdr__tracee_stop(struct tracee *t, pid_t tid);
/* Let it go, registers as they were at the stop. */
void fdr__tracee_release(struct tracee *t);
/*
 * Make the stopped thread call fn(arg) (arg: a C string copied below its
 * stack pointer), wait for the return, restore every register (general,
 * x87/SSE/AVX) and a syscall it was blocked in.  Signals that arrive
 * meanwhile are delivered.  0 with fn's value in *ret, or -errno
 * (-ESRCH: the process exited).
 */
int fdr__tracee_call(struct tracee *t, uint64_t fn, const char *arg, long *ret);

#endif
