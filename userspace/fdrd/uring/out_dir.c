// SPDX-License-Identifier: MIT
/*
 * out_dir.c - open and vet the output directory (out_dir.h).
 *
 * fdrd usually runs as root and writes where an administrator told it;
 * the directory is opened without following a symlink and its mode is
 * checked on the opened descriptor (fstat), so what is checked is what
 * the files go into.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>

#include "out_dir.h"

static int open_failed(const char *path, int e, char *err, size_t errlen)
{
	const char *hint = "";

	if (e == ENOENT)
		hint = " (the output directory is gone)";
	else if (e == ELOOP)
		hint = " (it is a symbolic link; fdrd does not follow one: give "
		       "its target with --output-dir)";
	snprintf(err, errlen, "cannot open output directory %s: %s%s", path,
		 e == ELOOP ? "it is a symbolic link" : strerror(e), hint);
	return -e;
}

/*
 * Others may write and the sticky bit is off: any user can rename or
 * unlink fdrd's files there and put their own under the log's name.
 */
static int check_mode(const char *path, const struct stat *st,
		      bool allow_insecure, char *err, size_t errlen)
{
	if (!S_ISDIR(st->st_mode)) {
		snprintf(err, errlen, "output directory %s: not a directory", path);
		return -ENOTDIR;
	}
	if (allow_insecure || !(st->st_mode & S_IWOTH) || (st->st_mode & S_ISVTX))
		return 0;
	snprintf(err, errlen, "output directory %s is writable by every user and "
		 "not sticky (mode %04o): another user could remove or replace "
		 "the logs; make it private (chmod o-w) or sticky (chmod +t), or "
		 "pass --allow-insecure-dir", path, (unsigned)(st->st_mode & 07777));
	return -EPERM;
}

int out_dir_open(struct out_dir *d, const char *path, bool allow_insecure,
		 char *err, size_t errlen)
{
	struct stat st;
	int ret;

	d->path = path;
	d->fd = open(path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (d->fd < 0) {
		/* O_DIRECTORY|O_NOFOLLOW on a symlink: ENOTDIR on some kernels */
		int e = errno;

		if (e == ENOTDIR && !lstat(path, &st) && S_ISLNK(st.st_mode))
			e = ELOOP;
		return open_failed(path, e, err, errlen);
	}
	if (fstat(d->fd, &st)) {
		ret = -errno;
		snprintf(err, errlen, "output directory %s: %s", path, strerror(errno));
	} else {
		ret = check_mode(path, &st, allow_insecure, err, errlen);
	}
	if (ret)
		out_dir_close(d);
	return ret;
}

void out_dir_close(struct out_dir *d)
{
	if (d->fd >= 0)
		close(d->fd);
	d->fd = -1;
}

int out_dir_has(const struct out_dir *d, const char *name)
{
	struct stat st;

	if (!fstatat(d->fd, name, &st, AT_SYMLINK_NOFOLLOW))
		return 1;
	return errno == ENOENT ? 0 : -errno;
}

bool out_dir_gone(const struct out_dir *d)
{
	struct stat st;

	return !fstat(d->fd, &st) && st.st_nlink == 0;
}
