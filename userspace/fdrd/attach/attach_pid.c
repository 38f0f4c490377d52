// SPDX-License-Identifier: MIT
/*
 * attach_pid.c - the recorder's calls into the running program, for
 * `fdr record -p` and `fdrd --attach-pid` (attach_pid.h).  "start" and
 * "stop" run in one thread while the others keep running, so that a
 * lock one of them holds is released.  The thread called is one stopped
 * waiting in a system call where the C library holds no lock of its own
 * (fdr__tracee_idle), or, in a dynamically linked program, one stopped
 * outside the C library's code: "start" allocates, and a thread stopped
 * inside malloc, or pthread_create's stack list, would wait for ever on
 * its own lock (the --patchable attach that hung in the VM).  Only when
 * none is found for PICK_MS (a static program that never waits) is any
 * thread taken; a
 * call that then does not return is stopped and put back after
 * FDR_TRACEE_CALL_MS, with a message.  "unmap" needs every thread
 * stopped outside a record: when one is inside, all are let go for a
 * moment and stopped again.  So does "stopped", after the "start" of an
 * fdr-cc --patchable build: a nop site across two 8-byte words cannot be
 * swapped in one store, but no stopped thread can be inside the nop.
 * Neither allocates nor takes a lock it could wait on.
 */
#include <dirent.h>
#include <elf.h>
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "attach_pid.h"
#include "msg.h"
#include "tracee.h"

#define MAX_THREADS	1024	/* what "unmap" takes (adapters/attach_entry.c) */
#define RETRY_MS	2000	/* -EAGAIN, -EBUSY: tried again 2 ms apart, this long */
#define PICK_MS		1000	/* looking for an idle thread, this long */
#define WATCHER		"fdr-watch"	/* attach_entry.c's thread: never called */

static uint64_t now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000 + (uint64_t)ts.tv_nsec / 1000000;
}

static void pause_2ms(void)
{
	nanosleep(&(struct timespec){ 0, 2 * 1000 * 1000 }, NULL);
}

/* The load bias: AT_ENTRY less the ELF's e_entry. */
static int load_bias(pid_t pid, uint64_t elf_entry, uint64_t *bias)
{
	char path[64];
	Elf64_auxv_t av;
	FILE *f;
	int r = -ENOENT;

	snprintf(path, sizeof(path), "/proc/%d/auxv", (int)pid);
	f = fopen(path, "re");
	if (!f)
		return -errno;
	while (fread(&av, sizeof(av), 1, f) == 1 && av.a_type != AT_NULL)
		if (av.a_type == AT_ENTRY) {
			*bias = av.a_un.a_val - elf_entry;
			r = 0;
		}
	fclose(f);
	return r;
}

static void say_ptrace_refused(pid_t pid, int err)
{
	char scope[16] = "?";
	FILE *f = fopen("/proc/sys/kernel/yama/ptrace_scope", "re");

	if (f) {
		if (!fgets(scope, sizeof(scope), f))
			scope[0] = '?';
		scope[strcspn(scope, "\n")] = 0;
		fclose(f);
	}
	msg_error("cannot attach to process %d: %s: only who may "
		"ptrace it may record it (the same user, not set-user-ID, or "
		"CAP_SYS_PTRACE; kernel.yama.ptrace_scope is %s: 1 allows only its "
		"ancestors, 2 only CAP_SYS_PTRACE, 3 nobody)", (int)pid, strerror(-err),
		scope);
}

/* Is tid the watcher "start" made?  "stop" joins it: not from itself. */
static bool is_watcher(pid_t pid, pid_t tid)
{
	char path[64], comm[32] = "";
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/task/%d/comm", (int)pid, (int)tid);
	f = fopen(path, "re");
	if (!f)
		return false;
	if (!fgets(comm, sizeof(comm), f))
		comm[0] = 0;
	fclose(f);
	return !strcmp(comm, WATCHER "\n");
}

/* The C library's code in a dynamically linked process: where a thread
 * stopped in user mode may hold one of its locks.  n 0: none mapped (a
 * static program, whose C library cannot be told from its own code). */
struct libc_text {
	int n;
	uint64_t lo[16], hi[16];
};

static bool is_libc(const char *path)
{
	static const char *const names[] = { "libc.so", "libc-", "ld-linux", "libpthread" };
	const char *base = strrchr(path, '/');

	base = base ? base + 1 : path;
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (!strncmp(base, names[i], strlen(names[i])))
			return true;
	return false;
}

static void find_libc(pid_t pid, struct libc_text *c)
{
	char path[64], line[512], perms[8], file[400];
	unsigned long long lo, hi;
	FILE *f;

	c->n = 0;
	snprintf(path, sizeof(path), "/proc/%d/maps", (int)pid);
	f = fopen(path, "re");
	while (f && c->n < 16 && fgets(line, sizeof(line), f)) {
		file[0] = 0;
		if (sscanf(line, "%llx-%llx %7s %*s %*s %*s %399s", &lo, &hi, perms, file) < 3)
			continue;
		if (strchr(perms, 'x') && is_libc(file)) {
			c->lo[c->n] = lo;
			c->hi[c->n++] = hi;
		}
	}
	if (f)
		fclose(f);
}

/* May a call run in t: waiting in an idle system call, or (a dynamic
 * program) stopped outside the C library's code, which is where its
 * locks are held. */
static bool safe_to_call(const struct tracee *t, const struct libc_text *c)
{
	if (fdr__tracee_idle(t))
		return true;
	if (!c->n)
		return false;
	for (int i = 0; i < c->n; i++)
		if (t->regs.rip >= c->lo[i] && t->regs.rip < c->hi[i])
			return false;
	return true;
}

/* One pass over the threads: stop one that is safe to call (any, when
 * any).  0, -ENOENT (none), or -errno of a stop (EPERM, ETIMEDOUT: a
 * thread that did not stop stays seized, and would be refused next). */
static int stop_pass(struct tracee *t, pid_t pid, bool any, const struct libc_text *c)
{
	char path[64];
	struct dirent *e;
	int r, found = -ENOENT;
	DIR *d;

	snprintf(path, sizeof(path), "/proc/%d/task", (int)pid);
	d = opendir(path);
	if (!d)
		return -ESRCH;
	while (found == -ENOENT && (e = readdir(d))) {
		pid_t tid = atoi(e->d_name);

		if (tid <= 0 || is_watcher(pid, tid))
			continue;
		r = fdr__tracee_stop(t, tid);
		if (!r && (any || safe_to_call(t, c)))
			found = 0;
		else if (!r)
			fdr__tracee_release(t);
		else if (r != -ESRCH)
			found = r;	/* not ours to trace; or it did not stop */
	}
	closedir(d);
	return found;
}

/* Stop a thread to call: one safe to call, else after PICK_MS any.  0
 * or -errno. */
static int stop_one(struct tracee *t, pid_t pid)
{
	uint64_t deadline = now_ms() + PICK_MS;
	struct libc_text c;
	int r;

	find_libc(pid, &c);
	while ((r = stop_pass(t, pid, false, &c)) == -ENOENT && now_ms() < deadline)
		pause_2ms();
	if (r == -ENOENT)
		r = stop_pass(t, pid, true, &c);
	return r == -ENOENT ? -ESRCH : r;
}

static unsigned count_threads(pid_t pid)
{
	char path[64];
	struct dirent *e;
	unsigned n = 0;
	DIR *d;

	snprintf(path, sizeof(path), "/proc/%d/task", (int)pid);
	d = opendir(path);
	while (d && (e = readdir(d)))
		n += atoi(e->d_name) > 0;
	if (d)
		closedir(d);
	return n;
}

/* Call cmd in one stopped thread; its value in *ret.  0 or -errno. */
static int call_once(struct attached *a, const char *cmd, long *ret)
{
	struct tracee t;
	int r = stop_one(&t, a->pid);

	if (r)
		return r;
	r = fdr__tracee_call(&t, a->entry, cmd, ret);
	if (r != -EDEADLK)	/* else it runs our call: let it end it */
		fdr__tracee_release(&t);
	return r;
}

/* As call_once, again while the thread was stopped holding libfdr's
 * lock (-EAGAIN: it must run out of it first), for up to RETRY_MS. */
static int call_one(struct attached *a, const char *cmd, long *ret)
{
	uint64_t deadline = now_ms() + RETRY_MS;
	int r;

	while (!(r = call_once(a, cmd, ret)) && *ret == -EAGAIN && now_ms() < deadline)
		pause_2ms();
	return r;
}

/* Why a call failed, for the messages: ours (the wait) or its value. */
static const char *call_error(int r, long ret)
{
	if (r == -ETIMEDOUT)
		return "a thread did not stop, or the call did not return, within "
		       "the time allowed (a lock it waits on is held by a thread that "
		       "does not run?); the thread was put back as it was";
	if (r == -EDEADLK)
		return "the call did not return and its thread could not be stopped "
		       "again: the process will fault when it returns";
	return strerror(r ? -r : (int)-ret);
}

static int stop_all(pid_t pid, struct tracee *all, unsigned *n);
static void release_all(struct tracee *all, unsigned n, bool first_runs);

/* "stopped" with every thread stopped: how many more functions record,
 * or -errno. */
static long call_stopped(struct attached *a)
{
	static struct tracee all[MAX_THREADS];
	unsigned n;
	long ret = 0;
	int r = stop_all(a->pid, all, &n);

	if (!r)
		r = fdr__tracee_call(&all[0], a->entry, "stopped", &ret);
	release_all(all, n, r == -EDEADLK);
	return r ? r : ret;
}

int fdr__attach_start(struct attached *a, pid_t pid, const struct fdr_elf_info *elf,
		      const char *cmd)
{
	uint64_t elf_entry = elf->entry, attach_entry = elf->attach_entry;
	uint64_t bias = 0;
	long ret = 0;
	int r;

	a->pid = pid;
	r = load_bias(pid, elf_entry, &bias);
	if (r == -EACCES || r == -EPERM) {
		say_ptrace_refused(pid, r);
		return -1;
	}
	if (r) {
		msg_error("process %d: cannot read its auxiliary vector: %s", (int)pid,
			  strerror(-r));
		return -1;
	}
	a->entry = bias + attach_entry;
	a->threads = count_threads(pid);
	r = call_one(a, cmd, &ret);
	if (r == -EPERM || r == -EACCES) {
		say_ptrace_refused(pid, r);
		return -1;
	}
	if (r || ret < 0) {
		msg_error("process %d: cannot start recording: %s%s", (int)pid,
			  call_error(r, ret), ret == -EALREADY ?
			  " (another fdr record -p or fdrd is attached to it)" : ret == -EISCONN ?
			" (it records already, or waits to, into the region its FDR_TARGET "
			"or /dev/fdr gave it at its start)" : "");
		return -1;
	}
	a->functions = ret;
	if (elf->instr != FDR_INSTR_PATCHABLE)
		return 0;
	ret = call_stopped(a);
	if (ret > 0)
		a->functions += ret;
	else if (ret < 0)	/* those sites stay nops: recording goes on without them */
		msg_warn("process %d: the functions that start with endbr64 are not "
			 "recorded: %s", (int)pid, call_error((int)ret, 0));
	return 0;
}

/* Stop every thread (listing until no new one appears); how many in *n.
 * One that is there and does not stop is an error: the callers need
 * them all.  On error, the ones stopped are in all[0..*n). */
static int stop_all(pid_t pid, struct tracee *all, unsigned *n)
{
	char path[64];
	struct dirent *e;
	bool added;
	DIR *d;
	int r;

	snprintf(path, sizeof(path), "/proc/%d/task", (int)pid);
	*n = 0;
	do {
		added = false;
		d = opendir(path);
		if (!d)
			return -ESRCH;
		while ((e = readdir(d))) {
			pid_t tid = atoi(e->d_name);
			unsigned i;

			for (i = 0; i < *n && all[i].tid != tid; i++)
				;
			if (tid <= 0 || i < *n)
				continue;
			if (*n == MAX_THREADS) {
				closedir(d);
				return -E2BIG;
			}
			r = fdr__tracee_stop(&all[*n], tid);
			if (r == 0) {
				(*n)++;
				added = true;
			} else if (r != -ESRCH) {
				closedir(d);
				return r;
			}
		}
		closedir(d);
	} while (added);
	return *n ? 0 : -ESRCH;
}

/* all[0] is the one called: left alone if it still runs the call. */
static void release_all(struct tracee *all, unsigned n, bool first_runs)
{
	for (unsigned i = first_runs ? 1 : 0; i < n; i++)
		fdr__tracee_release(&all[i]);
}

/* "unmap FSBASE..." with all threads stopped; 0, -EBUSY or -errno. */
static int unmap_once(struct attached *a, struct tracee *all, char *cmd, size_t cmdsz)
{
	unsigned n, i;
	size_t len;
	long ret = 0;
	int r = stop_all(a->pid, all, &n);

	if (r) {
		release_all(all, n, false);
		return r;
	}
	len = (size_t)snprintf(cmd, cmdsz, "unmap");
	for (i = 0; i < n && len < cmdsz; i++)
		len += (size_t)snprintf(cmd + len, cmdsz - len, " %llx",
					(unsigned long long)all[i].regs.fs_base);
	r = fdr__tracee_call(&all[0], a->entry, cmd, &ret);
	release_all(all, n, r == -EDEADLK);
	return r ? r : (int)ret;
}

int fdr__attach_stop(struct attached *a)
{
	static struct tracee all[MAX_THREADS];
	static char cmd[MAX_THREADS * 20 + 16];
	uint64_t deadline;
	long ret = 0;
	int r = call_one(a, "stop", &ret);

	if (r == -ESRCH)
		return 0;	/* it exited: nothing to detach from */
	if (r || ret) {
		msg_error("process %d: cannot stop recording: %s", (int)a->pid,
			  call_error(r, ret));
		return -1;
	}
	deadline = now_ms() + RETRY_MS;
	while ((r = unmap_once(a, all, cmd, sizeof(cmd))) == -EBUSY && now_ms() < deadline)
		pause_2ms();
	if (r && r != -ESRCH)
		msg_warn("process %d: recording stopped, but the region stays mapped in "
			 "it until it exits: %s", (int)a->pid, call_error(r, 0));
	return 0;
}
