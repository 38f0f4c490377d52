// SPDX-License-Identifier: MIT
/*
 * tracee.c - stop a thread with PTRACE_SEIZE + PTRACE_INTERRUPT and make
 * it call a function (tracee.h).
 *
 * The call: the stack pointer moves below the red zone, the argument
 * string and a return address of 0 go there, rip is the function, rdi the
 * string, orig_rax -1 so that the kernel does not restart the syscall the
 * thread was stopped in while it runs our call.  The function returns to
 * 0 and faults; that SIGSEGV at rip 0 is ours, never delivered.  Then the
 * saved registers go back, orig_rax and the -ERESTART* in rax included,
 * so that the interrupted syscall restarts as if nothing happened.
 */
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/ptrace.h>
#include <sys/uio.h>
#include <sys/wait.h>
#include <unistd.h>

#include "tracee.h"

#define RED_ZONE	128
#define XSTATE_MAX	(64 * 1024)	/* AVX-512 needs ~2.7 KiB; room to spare */

/* Wait for tid's next stop; its signal (0 for a ptrace event stop) in *sig. */
static int wait_stop(pid_t tid, int *sig, int *event)
{
	int st;

	while (waitpid(tid, &st, __WALL) < 0)
		if (errno != EINTR)
			return -errno;
	if (WIFEXITED(st) || WIFSIGNALED(st))
		return -ESRCH;
	*event = st >> 16;
	*sig = *event ? 0 : WSTOPSIG(st);
	return 0;
}

/* Until an interrupt or group stop: signals on the way are delivered. */
static int wait_interrupted(pid_t tid)
{
	int sig, event, r;

	for (;;) {
		r = wait_stop(tid, &sig, &event);
		if (r)
			return r;
		if (event == PTRACE_EVENT_STOP)
			return 0;
		if (ptrace(PTRACE_CONT, tid, 0, (long)sig))
			return -errno;
	}
}

int fdr__tracee_stop(struct tracee *t, pid_t tid)
{
	int r;

	t->tid = tid;
	if (ptrace(PTRACE_SEIZE, tid, 0, 0))
		return -errno;
	if (ptrace(PTRACE_INTERRUPT, tid, 0, 0)) {
		r = -errno;
		ptrace(PTRACE_DETACH, tid, 0, 0);
		return r;
	}
	r = wait_interrupted(tid);
	if (!r && ptrace(PTRACE_GETREGS, tid, 0, &t->regs))
		r = -errno;
	if (r)
		ptrace(PTRACE_DETACH, tid, 0, 0);
	return r;
}

void fdr__tracee_release(struct tracee *t)
{
	ptrace(PTRACE_DETACH, t->tid, 0, 0);
}

static int write_mem(pid_t tid, uint64_t addr, const void *p, size_t n)
{
	struct iovec local = { (void *)p, n }, remote = { (void *)addr, n };
	char path[64];
	ssize_t w;
	int fd;

	if (process_vm_writev(tid, &local, 1, &remote, 1, 0) == (ssize_t)n)
		return 0;
	/* the stack may be mapped read-only for process_vm_writev: not for ptrace */
	snprintf(path, sizeof(path), "/proc/%d/mem", (int)tid);
	fd = open(path, O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	w = pwrite(fd, p, n, (off_t)addr);
	close(fd);
	return w == (ssize_t)n ? 0 : -EFAULT;
}

/* Run the thread until the call returns to address 0. */
static int run_call(pid_t tid, long *ret)
{
	struct user_regs_struct r;
	int sig = 0, event, e;

	for (;;) {
		if (ptrace(PTRACE_CONT, tid, 0, (long)sig))
			return -errno;
		e = wait_stop(tid, &sig, &event);
		if (e)
			return e;
		if (sig != SIGSEGV)
			continue;	/* delivered by the next CONT; events: 0 */
		if (ptrace(PTRACE_GETREGS, tid, 0, &r))
			return -errno;
		if (r.rip == 0) {
			*ret = (long)r.rax;
			return 0;
		}
		return -EFAULT;	/* the call itself crashed: undo it */
	}
}

int fdr__tracee_call(struct tracee *t, uint64_t fn, const char *arg, long *ret)
{
	static uint8_t xstate[XSTATE_MAX];
	struct iovec xiov = { xstate, sizeof(xstate) };
	struct user_regs_struct regs = t->regs;
	size_t len = strlen(arg) + 1;
	uint64_t sp, zero = 0;
	int r;

	if (ptrace(PTRACE_GETREGSET, t->tid, (void *)NT_X86_XSTATE, &xiov))
		return -errno;
	sp = (t->regs.rsp - RED_ZONE - len) & ~15ull;
	regs.rdi = sp;
	sp -= 8;		/* the return address: rsp + 8 is 16-aligned at entry */
	r = write_mem(t->tid, regs.rdi, arg, len);
	if (!r)
		r = write_mem(t->tid, sp, &zero, sizeof(zero));
	if (r)
		return r;
	regs.rsp = sp;
	regs.rip = fn;
	regs.rax = 0;
	regs.orig_rax = (uint64_t)-1;
	if (ptrace(PTRACE_SETREGS, t->tid, 0, &regs))
		return -errno;
	r = run_call(t->tid, ret);
	if (r == -ESRCH)
		return r;
	if (ptrace(PTRACE_SETREGS, t->tid, 0, &t->regs) ||
	    ptrace(PTRACE_SETREGSET, t->tid, (void *)NT_X86_XSTATE, &xiov))
		return r ? r : -errno;
	return r;
}
