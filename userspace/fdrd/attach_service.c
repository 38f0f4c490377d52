// SPDX-License-Identifier: MIT
/*
 * attach_service.c - fdrd's side of attaching to a service
 * (attach_service.h).  The attach is `fdr record -p`'s (attach/): "start"
 * names fdrd's region as the target and fdrd's PID as the recorder, so
 * that the service's watcher stops recording by itself if fdrd dies; it
 * is done once, and --auto-reset's next INIT is followed by libfdr in the
 * service without another ptrace call.  A --gcc or --patchable service
 * names its functions in a sym-map of its own: fdrd keeps it open from
 * the attach on and copies it next to each log it writes.
 */
#include <errno.h>
#include <limits.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "attach_service.h"
#include "elf_info.h"
#include "msg.h"
#include "session.h"
#include "symmap.h"
#include "unit_pid.h"

void service_init(struct service *s)
{
	memset(s, 0, sizeof(*s));
	s->pidfd = -1;
	s->symfd = -1;
}

pid_t service_pid(const struct service *s, const struct fdrd_options *o)
{
	pid_t pid = o->attach_pid;

	if (o->attach_unit)
		pid = unit_main_pid(o->attach_unit);
	return pid > 0 && pid == s->last ? 0 : pid;
}

/* The region the service records into: the one fdrd opened. */
static void target_of(const struct fdrd_options *o, char *t, size_t size)
{
	if (o->session)
		snprintf(t, size, "%s:%s", fdrd_session_device(o), o->session);
	else
		snprintf(t, size, "%s", fdrd_session_device(o));
}

/* Its program, checked as fdr record -p checks it. */
static int check(pid_t pid, char *exe, size_t size, struct fdr_elf_info *elf)
{
	int r;

	if (fdr__attach_exe(pid, exe, size))
		return -1;
	r = fdr__elf_info(exe, elf);
	if (r) {
		msg_error("process %d: its program %s: %s", (int)pid, exe, strerror(-r));
		return -1;
	}
	return fdr__attach_can(pid, exe, elf) ? 0 : -1;
}

int service_check(pid_t pid)
{
	char exe[PATH_MAX];
	struct fdr_elf_info elf;

	return check(pid, exe, sizeof(exe), &elf);
}

int service_attach(struct service *s, pid_t pid, const struct fdrd_options *o)
{
	static char exe[PATH_MAX];
	struct fdr_elf_info elf;
	char target[256], cmd[512];
	int fd;

	s->last = pid;
	if (check(pid, exe, sizeof(exe), &elf))
		return -1;
	fd = (int)syscall(SYS_pidfd_open, pid, 0);
	if (fd < 0) {
		msg_error("process %d: %s", (int)pid, strerror(errno));
		return -1;
	}
	target_of(o, target, sizeof(target));
	/* threshold -1: the service's own (its FDR_OPTIONS, else libfdr's);
	 * every function */
	snprintf(cmd, sizeof(cmd), "start %d -1 %s -", (int)getpid(), target);
	if (fdr__attach_start(&s->a, pid, &elf, cmd)) {
		close(fd);
		return -1;
	}
	s->pidfd = fd;
	if (s->symfd >= 0)
		close(s->symfd);	/* the last service's: its logs have their copy */
	s->symfd = -1;
	if (elf.instr == FDR_INSTR_CYG || elf.instr == FDR_INSTR_PATCHABLE)
		s->symfd = fdr__symmap_open(pid);
	msg_info("attached to process %d (%s), %u thread%s: it records into %s", (int)pid,
		 exe, s->a.threads, s->a.threads == 1 ? "" : "s", target);
	return 0;
}

bool service_exited(struct service *s)
{
	struct pollfd p = { .fd = s->pidfd, .events = POLLIN };

	if (s->pidfd < 0 || poll(&p, 1, 0) <= 0)
		return false;
	close(s->pidfd);
	s->pidfd = -1;
	msg_info("process %d exited", (int)s->a.pid);
	return true;
}

void service_detach(struct service *s)
{
	if (s->pidfd < 0)
		return;
	if (!fdr__attach_stop(&s->a))
		msg_info("detached from process %d", (int)s->a.pid);
	close(s->pidfd);
	s->pidfd = -1;
}

void service_names(struct service *s, const char *dir)
{
	char to[PATH_MAX];
	int r;

	if (s->symfd < 0 && s->pidfd >= 0)	/* it had not made one at the attach */
		s->symfd = fdr__symmap_open(s->a.pid);
	if (s->symfd < 0)
		return;
	snprintf(to, sizeof(to), "%s/fdr-syms.%d.map", dir, (int)s->a.pid);
	r = fdr__symmap_copy(s->symfd, to, true);
	if (r)
		msg_warn("%s: %s: fdr report will show the functions of process %d as ids",
			 to, strerror(-r), (int)s->a.pid);
}
