// SPDX-License-Identifier: MIT
/*
 * attach_entry.c - fdr_attach_entry(): what `fdr record -p PID` makes a
 * running program call, through ptrace, to start and stop recording
 * (Documentation/integrations.md, "Recording a running program").  What
 * depends on the instrumentation (XRay sleds, -finstrument-functions
 * hooks) is attach_mode.h's; this file is in both adapters' archives.
 *
 * Nothing here runs unless a recorder calls it: a program nobody attaches
 * to has no thread, file or mapping more, and its instrumentation stays
 * idle (XRay: sleds unpatched; hooks: one branch skips the record).
 * The commands, one NUL-terminated line written by the recorder:
 *
 *   start PID THRESHOLD_US TARGET FUNCTIONS
 *	attach to TARGET (threshold -1: $FDR_OPTIONS or libfdr's default),
 *	make the instrumentation record (FUNCTIONS "-" for all, else
 *	$FDR_XRAY_FUNCTIONS' syntax: XRay only), and start a watcher thread
 *	that stops recording by itself when process PID (the recorder)
 *	dies.  Returns how many functions record (XRay: are patched; the
 *	hooks: 0, not known in advance).
 *   stop
 *	stop recording (XRay: unpatch, finalize), detach, end the watcher.
 *	Other threads run.
 *   unmap FSBASE...
 *	with every other thread stopped by the recorder (their %fs bases
 *	given): -EBUSY if one is inside a record, else reset their writers
 *	and unmap every region (and, --patchable, write back the nops
 *	"stopped" patched).
 *   stopped
 *	with every other thread stopped, after "start": what the mode
 *	could not do while they ran (fdr__attach_mode_stopped); how many
 *	more functions record.
 *
 * Each returns 0 (or a count) or -errno; the caller's errno is kept.
 * -EAGAIN: the thread was stopped holding libfdr's lock (start, stop), or
 * is the watcher (stop: it would join itself);
 * -EBUSY: some thread is inside a record or that lock (unmap): the
 * recorder lets the threads run for a moment and calls again.  The recorder
 * runs "start" and "stop" with the other threads running, so that a lock
 * another thread holds (malloc's, stdio's) is released and never
 * deadlocks us; "unmap" only tries libfdr's lock.
 */
#include <errno.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "attach_mode.h"
#include "fdr.h"
#include "fdr_inline.h"
#include "fdr_detach.h"
#include <linux/fdr.h>

#define WATCHER_STACK	(256 * 1024)
#define TARGET_MAX	256	/* "start"'s TARGET field, %255s below */

/* The recorder calls it by name: exported, never inlined away. */
__attribute__((visibility("default"), used, noinline)) long fdr_attach_entry(const char *cmd);

static struct {
	pthread_mutex_t lock;
	bool recording;
	bool watching;			/* watcher started and not joined */
	pthread_t watcher;
	void *stack;			/* the watcher's, ours to unmap */
	int pidfd, stopfd;		/* the recorder; "stop" wakes the watcher */
	char target[TARGET_MAX];	/* the recorder's region */
} a = { .lock = PTHREAD_MUTEX_INITIALIZER, .pidfd = -1, .stopfd = -1 };

__FDR_NO_INSTRUMENT static void close_fds(void)
{
	if (a.pidfd >= 0)
		close(a.pidfd);
	if (a.stopfd >= 0)
		close(a.stopfd);
	a.pidfd = a.stopfd = -1;
}

/* After the join only: the watcher no longer runs on it. */
__FDR_NO_INSTRUMENT static void free_stack(void)
{
	if (a.stack)
		munmap(a.stack, WATCHER_STACK);
	a.stack = NULL;
}

/* Called with a.lock held.  retire: other threads may be mid-record. */
__FDR_NO_INSTRUMENT static void stop_locked(bool retire)
{
	if (!a.recording)
		return;
	fdr__attach_mode_stop();	/* no new record; libfdr detached */
	fdr__threshold_us_override = -1;	/* the program's own again */
	if (retire)
		fdr__retire_all();
	a.recording = false;
}

/*
 * The recorder died: nobody will flush or remove its private embedded
 * region (fdr record's "embedded:record.PID.RANDOM"), which would hold
 * its memory until reboot.  Remove its name; our zero pages hold none.
 */
__FDR_NO_INSTRUMENT static void forget_private_region(void)
{
	static const char prefix[] = FDR_EMBEDDED_PREFIX "record.";

	if (!strncmp(a.target, prefix, sizeof(prefix) - 1))
		fdr_ctl_destroy_embedded(a.target);
}

/* Waits for the recorder's death or for "stop". */
__FDR_NO_INSTRUMENT static void *watch(void *unused)
{
	struct pollfd p[2] = { { .fd = a.pidfd, .events = POLLIN },
			       { .fd = a.stopfd, .events = POLLIN } };

	(void)unused;
	pthread_setname_np(pthread_self(), "fdr-watch");	/* what ps shows */
	while (poll(p, 2, -1) < 0 && errno == EINTR)
		;
	pthread_mutex_lock(&a.lock);
	if (a.watching && !(p[1].revents & POLLIN)) {
		/* the recorder died: nobody will stop us or join us */
		stop_locked(true);
		forget_private_region();
		close_fds();
		a.watching = false;
		a.stack = NULL;	/* ours to run on until the end: 256 KiB stay */
		pthread_detach(pthread_self());
	}
	pthread_mutex_unlock(&a.lock);
	return NULL;
}

/*
 * The watcher takes no signal meant for the program's threads, and runs
 * on a stack of ours: glibc would keep a stack it allocated in its cache
 * after the join, a mapping left behind.
 */
__FDR_NO_INSTRUMENT static int start_watcher(pid_t recorder)
{
	pthread_attr_t attr;
	sigset_t all, old;
	int r;

	a.pidfd = (int)syscall(SYS_pidfd_open, recorder, 0);
	a.stopfd = eventfd(0, EFD_CLOEXEC);
	if (a.pidfd < 0 || a.stopfd < 0) {
		r = -errno;
		close_fds();
		return r;
	}
	a.stack = mmap(NULL, WATCHER_STACK, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS | MAP_STACK, -1, 0);
	if (a.stack == MAP_FAILED) {
		a.stack = NULL;
		close_fds();
		return -ENOMEM;
	}
	pthread_attr_init(&attr);
	pthread_attr_setstack(&attr, a.stack, WATCHER_STACK);
	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	r = -pthread_create(&a.watcher, &attr, watch, NULL);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	pthread_attr_destroy(&attr);
	if (r) {
		close_fds();
		free_stack();
	} else {
		a.watching = true;
	}
	return r;
}

/* "stop" from the recorder: the watcher ends and is joined. */
__FDR_NO_INSTRUMENT static void end_watcher(void)
{
	uint64_t one = 1;
	pthread_t w = a.watcher;

	if (!a.watching)
		return;
	a.watching = false;
	if (write(a.stopfd, &one, sizeof(one)) < 0)
		return;		/* cannot happen on an eventfd; keep it */
	pthread_mutex_unlock(&a.lock);
	pthread_join(w, NULL);
	pthread_mutex_lock(&a.lock);
	close_fds();
	free_stack();
}

__FDR_NO_INSTRUMENT static int start(pid_t recorder, long threshold_us,
				     const char *target, const char *functions)
{
	int r, w;

	if (a.recording || a.watching)
		return -EALREADY;
	snprintf(a.target, sizeof(a.target), "%s", target);
	fdr__threshold_us_override = threshold_us;
	r = fdr__attach_mode_start(target, functions);
	if (r < 0) {
		fdr__threshold_us_override = -1;
		return r;
	}
	a.recording = true;
	w = start_watcher(recorder);
	if (w) {
		stop_locked(false);
		return w;
	}
	return r;
}

/* "unmap": every other thread is stopped; none may be inside a record. */
__FDR_NO_INSTRUMENT static int unmap(const char *list)
{
	uintptr_t self, fs[1024];
	size_t n = 0;
	long off;
	char *end;

	__asm__("mov %%fs:0, %0" : "=r"(self));	/* the TCB points at itself */
	off = (long)((uintptr_t)&fdr__thread - self);	/* initial-exec: same in all */
	while (*list && n < sizeof(fs) / sizeof(fs[0])) {
		fs[n] = strtoull(list, &end, 16);
		if (end == list)
			return -EINVAL;
		if (((struct fdr_thread *)(fs[n] + off))->busy)
			return -EBUSY;
		n++;
		list = end + strspn(end, " ");
	}
	if (*list)
		return -E2BIG;
	if (fdr__attach_mode_stopped)
		fdr__attach_mode_stopped(false);
	for (size_t i = 0; i < n; i++) {
		struct fdr_thread *t = (struct fdr_thread *)(fs[i] + off);

		t->region = NULL;
		t->desc = NULL;
		t->ctl = &fdr__no_control;
		t->buf = NULL;
		t->pos = 0;
		t->fast_size = 0;
	}
	return fdr__unmap_all();
}

__FDR_NO_INSTRUMENT static int run(const char *cmd)
{
	char target[TARGET_MAX];
	const char *functions;
	int pid, at = 0, r = -EINVAL;
	long threshold;

	if (!strncmp(cmd, "unmap ", 6))
		return a.recording ? -EBUSY : unmap(cmd + 6);
	if (!strcmp(cmd, "stopped"))	/* the world stopped: no lock taken */
		return fdr__attach_mode_stopped && a.recording ? fdr__attach_mode_stopped(true) : 0;
	if (fdr__lock_is_mine())
		return -EAGAIN;	/* stopped inside libfdr: let it out, call again */
	pthread_mutex_lock(&a.lock);
	if (!strcmp(cmd, "stop") && a.watching && pthread_equal(pthread_self(), a.watcher)) {
		r = -EAGAIN;	/* it cannot join itself; not yet named, the recorder
				 * took it for another: it calls again */
	} else if (!strcmp(cmd, "stop")) {
		stop_locked(false);
		end_watcher();
		r = 0;
	} else if (sscanf(cmd, "start %d %ld %255s %n", &pid, &threshold, target, &at) == 3 &&
		   at > 0) {
		/* the last field, in place: it may be long (-F/-N ids) */
		functions = cmd + at;
		r = *functions ? start(pid, threshold, target, functions) : -EINVAL;
	}
	pthread_mutex_unlock(&a.lock);
	return r;
}

__FDR_NO_INSTRUMENT long fdr_attach_entry(const char *cmd)
{
	int saved = errno;
	long r = run(cmd);

	errno = saved;
	return r;
}
