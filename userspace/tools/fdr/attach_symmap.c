// SPDX-License-Identifier: MIT
/*
 * attach_symmap.c - the names of an attached --gcc program.  Its hooks
 * name every function they see in a sym-map file of their own
 * ($FDR_SYMDIR/fdr-syms.PID.map, else /tmp), kept open from its first
 * call on, attached or not.  The recorder opens that file through
 * /proc/PID/fd (so it still reads it if the program exits or the file is
 * removed meanwhile) and copies it into DIR, where fdr report finds the
 * sym-maps of a run it started.  The program writes the file: its bytes
 * are the readers' to check, as any sym-map's; here only its size is
 * bounded.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "record.h"

#define SYMMAP_MAX	(64u << 20)	/* 98,304 functions of long names fit */

/* Is link (a /proc/PID/fd target) the program's sym-map? */
static bool is_symmap(const char *link, pid_t pid)
{
	char want[64];
	const char *base = strrchr(link, '/');
	size_t n = (size_t)snprintf(want, sizeof(want), "fdr-syms.%d.map", (int)pid);

	/* a removed file's link ends in " (deleted)" */
	return base && !strncmp(base + 1, want, n) &&
	       (!base[1 + n] || !strcmp(base + 1 + n, " (deleted)"));
}

int fdr__attach_symmap_open(pid_t pid)
{
	char dir[64], path[64 + 256], link[PATH_MAX];
	struct dirent *e;
	int fd = -1;
	DIR *d;

	snprintf(dir, sizeof(dir), "/proc/%d/fd", (int)pid);
	d = opendir(dir);
	while (d && fd < 0 && (e = readdir(d))) {
		ssize_t n;

		snprintf(path, sizeof(path), "%s/%s", dir, e->d_name);
		n = readlink(path, link, sizeof(link) - 1);
		if (n <= 0)
			continue;
		link[n] = 0;
		if (is_symmap(link, pid))
			fd = open(path, O_RDONLY | O_CLOEXEC);
	}
	if (d)
		closedir(d);
	return fd;
}

/* Copy from fd to a new file DIR/fdr-syms.PID.map: 0 or -errno. */
static int copy_to(int fd, const char *to)
{
	static char buf[65536];
	off_t at = 0;
	ssize_t n;
	int out = open(to, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644), r = 0;

	if (out < 0)
		return -errno;
	while ((n = pread(fd, buf, sizeof(buf), at)) > 0 && at < SYMMAP_MAX) {
		if (write(out, buf, (size_t)n) != n) {
			r = -EIO;
			break;
		}
		at += n;
	}
	if (n < 0)
		r = -errno;
	if (close(out) && !r)
		r = -errno;
	return r;
}

int fdr__attach_symmap_copy(int fd, pid_t pid, const char *dir)
{
	char to[PATH_MAX];
	int r;

	if (fd < 0)
		fd = fdr__attach_symmap_open(pid);	/* it had not called yet */
	if (fd < 0) {
		fprintf(stderr, "fdr record: process %d has no sym-map open (its hooks "
			"could not create one: see its messages); fdr report will show "
			"function ids, not names\n", (int)pid);
		return 0;
	}
	snprintf(to, sizeof(to), "%s/fdr-syms.%d.map", dir, (int)pid);
	r = copy_to(fd, to);
	close(fd);
	if (r) {
		fprintf(stderr, "fdr record: %s: %s\n", to, strerror(-r));
		return FDR_EXIT_FAILED;
	}
	return 0;
}
