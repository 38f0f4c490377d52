// SPDX-License-Identifier: MIT
/*
 * attach_pid.c - the recorder's calls into the running program, for
 * `fdr record -p` and `fdrd --attach-pid` (attach_pid.h).  The thread
 * called is the main thread (any thread will do: the others keep running
 * during "start" and "stop", so that a lock one of them holds is
 * released).  "unmap" needs every thread
 * stopped outside a record: when one is inside, all are let go for a
 * moment and stopped again.  So does "stopped", after the "start" of an
 * fdr-cc --patchable build: a nop site across two 8-byte words cannot be
 * swapped in one store, but no stopped thread can be inside the nop.
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
#define UNMAP_TRIES	500	/* 2 ms apart: a second in all */

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

/* Stop the main thread (else any): 0 or -errno. */
static int stop_one(struct tracee *t, pid_t pid)
{
	char path[64];
	struct dirent *e;
	DIR *d;
	int r = fdr__tracee_stop(t, pid);

	if (r != -ESRCH)
		return r;
	snprintf(path, sizeof(path), "/proc/%d/task", (int)pid);
	d = opendir(path);	/* a zombie main thread: another */
	if (!d)
		return -ESRCH;
	while ((e = readdir(d)) && r == -ESRCH)
		if (atoi(e->d_name) > 0 && atoi(e->d_name) != pid)
			r = fdr__tracee_stop(t, atoi(e->d_name));
	closedir(d);
	return r;
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
	if (r != -ESRCH)
		fdr__tracee_release(&t);
	return r;
}

/* As call_once, again while the thread was stopped holding libfdr's
 * lock (-EAGAIN: it must run out of it first), up to a second. */
static int call_one(struct attached *a, const char *cmd, long *ret)
{
	struct timespec pause = { 0, 2 * 1000 * 1000 };
	int r, tries = 0;

	while (!(r = call_once(a, cmd, ret)) && *ret == -EAGAIN && ++tries < UNMAP_TRIES)
		nanosleep(&pause, NULL);
	return r;
}

static int stop_all(pid_t pid, struct tracee *all, unsigned *n);
static void release_all(struct tracee *all, unsigned n);

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
	if (r != -ESRCH)
		release_all(all, n);
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
			  strerror(r ? -r : (int)-ret), ret == -EALREADY ?
			  " (another fdr record -p or fdrd is attached to it)" : ret == -EISCONN ?
			" (it records already, or waits to, into the region its FDR_TARGET "
			"or /dev/fdr gave it at its start)" : "");
		return -1;
	}
	a->functions = ret;
	if (elf->instr == FDR_INSTR_PATCHABLE && (ret = call_stopped(a)) > 0)
		a->functions += ret;	/* < 0: those sites stay nops, counted */
	return 0;
}

/* Stop every thread (listing until no new one appears); how many in *n. */
static int stop_all(pid_t pid, struct tracee *all, unsigned *n)
{
	char path[64];
	struct dirent *e;
	bool added;
	DIR *d;

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
			if (fdr__tracee_stop(&all[*n], tid) == 0) {
				(*n)++;
				added = true;
			}
		}
		closedir(d);
	} while (added);
	return *n ? 0 : -ESRCH;
}

static void release_all(struct tracee *all, unsigned n)
{
	for (unsigned i = 0; i < n; i++)
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
		release_all(all, n);
		return r;
	}
	len = (size_t)snprintf(cmd, cmdsz, "unmap");
	for (i = 0; i < n && len < cmdsz; i++)
		len += (size_t)snprintf(cmd + len, cmdsz - len, " %llx",
					(unsigned long long)all[i].regs.fs_base);
	r = fdr__tracee_call(&all[0], a->entry, cmd, &ret);
	if (r != -ESRCH)
		release_all(all, n);
	return r ? r : (int)ret;
}

int fdr__attach_stop(struct attached *a)
{
	static struct tracee all[MAX_THREADS];
	static char cmd[MAX_THREADS * 20 + 16];
	struct timespec pause = { 0, 2 * 1000 * 1000 };
	long ret = 0;
	int r = call_one(a, "stop", &ret), tries = 0;

	if (r == -ESRCH)
		return 0;	/* it exited: nothing to detach from */
	if (r || ret) {
		msg_error("process %d: cannot stop recording: %s", (int)a->pid,
			  strerror(r ? -r : (int)-ret));
		return -1;
	}
	while ((r = unmap_once(a, all, cmd, sizeof(cmd))) == -EBUSY && ++tries < UNMAP_TRIES)
		nanosleep(&pause, NULL);
	if (r && r != -ESRCH)
		msg_warn("process %d: recording stopped, but the region stays mapped in "
			 "it until it exits: %s", (int)a->pid, strerror(-r));
	return 0;
}
