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
 *
 * No wait here blocks for ever: a thread that does not stop, or a call
 * that does not return (a lock it needs is held by a thread that will
 * not run), ends the wait with -ETIMEDOUT, and the recorder says so
 * instead of hanging with the program's thread in its hands.
 */
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/ptrace.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "tracee.h"

#define RED_ZONE	128
#define XSTATE_MAX	(64 * 1024)	/* AVX-512 needs ~2.7 KiB; room to spare */

static uint64_t now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000 + (uint64_t)ts.tv_nsec / 1000000;
}

/*
 * Wait for tid's next stop until deadline (now_ms()); its signal (0 for a
 * ptrace event stop) in *sig.  waitpid has no timeout: it is asked with
 * WNOHANG, first at once, then at intervals growing to 1 ms, so that a
 * stop that comes at once costs no sleep.
 */
static int wait_stop(pid_t tid, int *sig, int *event, uint64_t deadline)
{
	long pause_ns = 10 * 1000;
	int st;
	pid_t w;

	while ((w = waitpid(tid, &st, __WALL | WNOHANG)) <= 0) {
		if (w < 0 && errno != EINTR)
			return -errno;
		if (now_ms() >= deadline)
			return -ETIMEDOUT;
		nanosleep(&(struct timespec){ 0, pause_ns }, NULL);
		if (pause_ns < 1000 * 1000)
			pause_ns *= 2;
	}
	if (WIFEXITED(st) || WIFSIGNALED(st))
		return -ESRCH;
	*event = st >> 16;
	*sig = *event ? 0 : WSTOPSIG(st);
	return 0;
}

/*
 * Until an interrupt or group stop: signals on the way are delivered.
 * Any ptrace stop ends a pending PTRACE_INTERRUPT (the kernel clears it
 * at every trap, "the actual trap might not be PTRACE_EVENT_STOP"): a
 * signal-delivery stop took ours, so it is asked again before the
 * signal goes on, else the thread would run on and never stop.
 */
static int wait_interrupted(pid_t tid, uint64_t deadline)
{
	int sig, event, r;

	for (;;) {
		r = wait_stop(tid, &sig, &event, deadline);
		if (r)
			return r;
		if (event == PTRACE_EVENT_STOP)
			return 0;
		if (ptrace(PTRACE_INTERRUPT, tid, 0, 0) ||
		    ptrace(PTRACE_CONT, tid, 0, (long)sig))
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
	r = wait_interrupted(tid, now_ms() + FDR_TRACEE_STOP_MS);
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

/* Run the thread until the call returns to address 0, or deadline. */
static int run_call(pid_t tid, long *ret, uint64_t deadline)
{
	struct user_regs_struct r;
	int sig = 0, event, e;

	for (;;) {
		if (ptrace(PTRACE_CONT, tid, 0, (long)sig))
			return -errno;
		e = wait_stop(tid, &sig, &event, deadline);
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

/*
 * The call did not return in time: stop the thread wherever it waits, so
 * that its registers can be put back.  As wait_interrupted, but a return
 * to 0 that came meanwhile is a stop too (its SIGSEGV is ours).  0 or
 * -errno.
 */
static int interrupt_call(pid_t tid)
{
	uint64_t deadline = now_ms() + FDR_TRACEE_STOP_MS;
	struct user_regs_struct r;
	int sig, event, e;

	if (ptrace(PTRACE_INTERRUPT, tid, 0, 0))
		return -errno;
	for (;;) {
		e = wait_stop(tid, &sig, &event, deadline);
		if (e)
			return e;
		if (event == PTRACE_EVENT_STOP)
			return 0;
		if (sig == SIGSEGV && !ptrace(PTRACE_GETREGS, tid, 0, &r) && r.rip == 0)
			return 0;
		if (ptrace(PTRACE_INTERRUPT, tid, 0, 0) ||
		    ptrace(PTRACE_CONT, tid, 0, (long)sig))
			return -errno;
	}
}

/* Where the C library can hold none of its own locks (malloc's, the
 * thread stacks', stdio's for our use): the thread waits in one of these
 * system calls.  A thread stopped anywhere else may be inside malloc, and
 * a call that allocates would then wait for ever on its own lock. */
static bool idle_syscall(long nr)
{
	static const long idle[] = {
		SYS_read, SYS_readv, SYS_pread64, SYS_preadv, SYS_recvfrom, SYS_recvmsg,
		SYS_recvmmsg, SYS_poll, SYS_ppoll, SYS_select, SYS_pselect6,
		SYS_epoll_wait, SYS_epoll_pwait, SYS_nanosleep, SYS_clock_nanosleep,
		SYS_pause, SYS_rt_sigsuspend, SYS_rt_sigtimedwait, SYS_wait4, SYS_waitid,
		SYS_accept, SYS_accept4, SYS_futex, SYS_msgrcv, SYS_semtimedop,
	};

	for (size_t i = 0; i < sizeof(idle) / sizeof(idle[0]); i++)
		if (nr == idle[i])
			return true;
	return false;
}

bool fdr__tracee_idle(const struct tracee *t)
{
	return (long)t->regs.orig_rax >= 0 && idle_syscall((long)t->regs.orig_rax);
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
	r = run_call(t->tid, ret, now_ms() + FDR_TRACEE_CALL_MS);
	if (r == -ETIMEDOUT && interrupt_call(t->tid))
		return -EDEADLK;	/* still running the call: cannot be put back */
	/* also after -ESRCH: a live thread's registers must come back */
	if (ptrace(PTRACE_SETREGS, t->tid, 0, &t->regs) ||
	    ptrace(PTRACE_SETREGSET, t->tid, (void *)NT_X86_XSTATE, &xiov))
		return r ? r : -errno;
	return r;
}
