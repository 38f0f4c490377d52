/* SPDX-License-Identifier: MIT */
/*
 * tracee.h - the ptrace side of `fdr record -p`: stop a thread of a
 * running program, make it call a function of its own, put it back
 * exactly as it was (Documentation/integrations.md, "Recording a running
 * program").
 */
#ifndef FDR_TRACEE_H
#define FDR_TRACEE_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>
#include <sys/user.h>

struct tracee {
	pid_t tid;
	struct user_regs_struct regs;	/* as stopped */
};

/* How long a thread may take to stop, and a call to return (a loaded
 * host, a VM without KVM and a program of 20,000 functions included). */
#define FDR_TRACEE_STOP_MS	10000
#define FDR_TRACEE_CALL_MS	30000

/* Seize and stop thread tid.  0, -ESRCH (gone), -ETIMEDOUT (it did not
 * stop in FDR_TRACEE_STOP_MS: it stays seized until the recorder exits)
 * or -errno (EPERM: not ours to trace). */
int fdr__tracee_stop(struct tracee *t, pid_t tid);
/* Let it go, registers as they were at the stop. */
void fdr__tracee_release(struct tracee *t);
/* Was it stopped waiting in a system call where the C library holds no
 * lock of its own (sleep, poll, read, futex...)?  Only there may a call
 * that allocates run: stopped in user mode it may be inside malloc. */
bool fdr__tracee_idle(const struct tracee *t);
/*
 * Make the stopped thread call fn(arg) (arg: a C string copied below its
 * stack pointer), wait for the return, restore every register (general,
 * x87/SSE/AVX) and a syscall it was blocked in.  Signals that arrive
 * meanwhile are delivered.  0 with fn's value in *ret, or -errno
 * (-ESRCH: the process exited; -ETIMEDOUT: fn did not return in
 * FDR_TRACEE_CALL_MS, the thread was stopped and put back as it was,
 * what fn had done is left; -EDEADLK: it did not even stop then, and
 * still runs fn: it can only fault when fn returns).
 */
int fdr__tracee_call(struct tracee *t, uint64_t fn, const char *arg, long *ret);

#endif
