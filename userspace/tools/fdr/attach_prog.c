// SPDX-License-Identifier: MIT
/*
 * attach_prog.c - what `fdr record -p PID` records: the process's
 * executable (checked as PROG is, and it must carry fdr_attach_entry:
 * an fdr-cc build, XRay or --gcc)
 * and its command line for DIR/info.
 */
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "attach_pid.h"
#include "record.h"

#define MAX_ARGS	256

/* /proc/PID/cmdline as argv (cut at MAX_ARGS and 64 KiB). */
static void read_cmdline(pid_t pid, const char *exe, char **argv)
{
	static char buf[65536];
	char path[64];
	ssize_t n = 0;
	size_t i = 0, at = 0;
	int fd;

	snprintf(path, sizeof(path), "/proc/%d/cmdline", (int)pid);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd >= 0) {
		n = read(fd, buf, sizeof(buf) - 1);
		close(fd);
	}
	buf[n > 0 ? n : 0] = 0;
	while (n > 0 && at < (size_t)n && i < MAX_ARGS) {
		argv[i++] = buf + at;
		at += strlen(buf + at) + 1;
	}
	if (i == 0)
		argv[i++] = (char *)exe;
	argv[i] = NULL;
}

static bool same_file(const char *a, const char *b)
{
	struct stat sa, sb;

	return !stat(a, &sa) && !stat(b, &sb) && sa.st_dev == sb.st_dev &&
	       sa.st_ino == sb.st_ino;
}

int fdr__attach_prog(struct record_opts *o, struct prog *p)
{
	static char *argv[MAX_ARGS + 1];
	static char exe[PATH_MAX];
	char link[64];
	int r;

	if (fdr__attach_exe(o->pid, exe, sizeof(exe)))
		return FDR_EXIT_FAILED;
	read_cmdline(o->pid, exe, argv);
	o->argv = argv;
	/* by its name when that is still the file it runs (messages name it),
	 * else through /proc (deleted or replaced since) */
	snprintf(link, sizeof(link), "/proc/%d/exe", (int)o->pid);
	r = fdr__prog_check(same_file(link, exe) ? exe : link, p, false);
	if (r)
		return r;
	snprintf(p->path, sizeof(p->path), "%s", exe);
	return fdr__attach_can(o->pid, exe, &p->elf) ? -1 : FDR_EXIT_FAILED;
}
