// SPDX-License-Identifier: MIT
/*
 * symmap.c - an attached program's sym-map, read through /proc/PID/fd
 * and copied next to the recorder's logs (symmap.h).  The program writes
 * the file: its bytes are the readers' to check, as any sym-map's; here
 * only its size is bounded.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "symmap.h"

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

int fdr__symmap_open(pid_t pid)
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

/* Copy from fd to the new file to: 0 or -errno. */
static int copy_new(int fd, const char *to)
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

int fdr__symmap_copy(int fd, const char *to, bool replace)
{
	char tmp[PATH_MAX];
	int r;

	if (!replace)
		return copy_new(fd, to);
	if (snprintf(tmp, sizeof(tmp), "%s.tmp", to) >= (int)sizeof(tmp))
		return -ENAMETOOLONG;
	unlink(tmp);	/* one a killed recorder left */
	r = copy_new(fd, tmp);
	if (!r && rename(tmp, to))
		r = -errno;
	if (r)
		unlink(tmp);
	return r;
}
