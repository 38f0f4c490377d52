// SPDX-License-Identifier: MIT
/*
 * attach_run.c - `fdr record -p PID`'s middle: instead of running PROG,
 * start recording in the running process, wait for Ctrl-C (SIGINT,
 * SIGTERM, SIGHUP), --duration, the trigger or the process's exit, and
 * stop recording and detach, leaving the process as it was.
 */
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "attach_pid.h"
#include "record.h"

#define POLL_MS	50	/* how often the trigger and the duration are looked at */

static volatile sig_atomic_t stop_asked;

static void on_stop(int sig)
{
	(void)sig;
	stop_asked = 1;
}

/* No SA_RESTART: the wait below must wake up. */
static void catch_stop_signals(void)
{
	struct sigaction sa = { .sa_handler = on_stop };

	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
}

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

/* Did the region stop recording (the trigger finalized it)? */
static bool region_stopped(struct backend *b)
{
	struct fdr_status st = { .size = sizeof(st) };

	return fdr_ctl_status(b->ctl, &st) == 0 && st.state != FDR_STATE_INITIALIZED;
}

/* Until a reason to stop; true if the process exited. */
static bool wait_for_stop(const struct record_opts *o, struct backend *b, int pidfd)
{
	uint64_t end = o->duration_us ? now_ns() + o->duration_us * 1000 : 0;
	struct pollfd p = { .fd = pidfd, .events = POLLIN };

	while (!stop_asked && (!end || now_ns() < end)) {
		if (poll(&p, 1, POLL_MS) > 0)
			return true;
		if (region_stopped(b))
			break;
	}
	return false;
}

static void say_attached(const struct record_opts *o, const struct prog *p,
			 const struct attached *a)
{
	char what[64];

	if (p->elf.instr == FDR_INSTR_CYG)
		snprintf(what, sizeof(what), "its -finstrument-functions hooks record");
	else
		snprintf(what, sizeof(what), "%ld function%s patched", a->functions,
			 a->functions == 1 ? "" : "s");
	fprintf(stderr, "fdr record: attached to process %d (%s), %u thread%s, %s; "
		"recording until %s\n", (int)o->pid, p->path, a->threads,
		a->threads == 1 ? "" : "s", what, o->duration_us ? "--duration ends, Ctrl-C "
		"or its exit" : "Ctrl-C (SIGINT, SIGTERM) or its exit");
}

int fdr__attach_run(const struct record_opts *o, const struct prog *p,
		    const struct run_env *env, struct backend *b)
{
	static char cmd[65536 + 512];
	/* both name their functions in a sym-map of their own */
	bool cyg = p->elf.instr == FDR_INSTR_CYG || p->elf.instr == FDR_INSTR_PATCHABLE;
	int pidfd, r, symmap = -1;
	struct attached a;
	bool exited;

	snprintf(cmd, sizeof(cmd), "start %d %ld %s %s", (int)getpid(), env->threshold_us,
		 env->target, env->functions[0] ? env->functions : "-");
	pidfd = (int)syscall(SYS_pidfd_open, o->pid, 0);
	if (pidfd < 0) {
		fprintf(stderr, "fdr record: process %d: %s\n", (int)o->pid, strerror(errno));
		return FDR_EXIT_FAILED;
	}
	catch_stop_signals();
	if (fdr__attach_start(&a, o->pid, &p->elf, cmd)) {
		close(pidfd);
		return FDR_EXIT_FAILED;
	}
	if (cyg)	/* read its names even if it exits or removes them */
		symmap = fdr__attach_symmap_open(o->pid);
	say_attached(o, p, &a);
	exited = wait_for_stop(o, b, pidfd);
	close(pidfd);
	if (exited) {
		fprintf(stderr, "fdr record: process %d exited\n", (int)o->pid);
		r = 0;
	} else if (fdr__attach_stop(&a)) {
		r = FDR_EXIT_FAILED;
	} else {
		r = 0;
		fprintf(stderr, "fdr record: detached from process %d\n", (int)o->pid);
	}
	if (cyg)
		r = fdr__attach_symmap_copy(symmap, o->pid, env->symdir) ?: r;
	return r;
}
