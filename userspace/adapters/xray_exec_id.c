// SPDX-License-Identifier: MIT
/*
 * xray_exec_id.c - claim an object id for an exec()ed XRay executable
 * (xray_exec_id.h).
 *
 * The claim files are in a directory other processes of the recording
 * can write: what one holds is compared, never trusted further.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <linux/fdr.h>
#include "fdr_env.h"
#include "prog_image.h"
#include "sym_map.h"
#include "xray_dso.h"
#include "xray_exec_id.h"

int32_t fdr__xray_main_base;

/* 1: the claim file holds path; 0: another path (or unreadable);
 * -1: no such file. */
__FDR_NO_INSTRUMENT static int holds(const char *file, const char *path)
{
	char buf[PATH_MAX];
	int fd = open(file, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
	ssize_t n;

	if (fd < 0)
		return errno == ENOENT ? -1 : 0;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n < 0)
		return 0;
	buf[n] = '\0';
	return !strcmp(buf, path);
}

/* A file holding path, to link(2) under each candidate name. */
__FDR_NO_INSTRUMENT static int write_tmp(const char *tmp, const char *path)
{
	int fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC, 0644);
	size_t len = strlen(path);
	int ok;

	if (fd < 0)
		return -1;
	ok = write(fd, path, len) == (ssize_t)len;
	close(fd);
	return ok ? 0 : -1;
}

/* The id path holds, or a free one now claimed; 0: none. */
__FDR_NO_INSTRUMENT static int claim(const char *dir, const char *path)
{
	char tmp[PATH_MAX], file[PATH_MAX];
	int id, h;

	snprintf(tmp, sizeof(tmp), "%s/" FDR_XRAY_EXE_CLAIM ".tmp.%d", dir, (int)getpid());
	if (write_tmp(tmp, path))
		return 0;
	for (id = FDR_XRAY_DSO_MAX; id >= 1; id--) {
		snprintf(file, sizeof(file), "%s/" FDR_XRAY_EXE_CLAIM ".%d", dir, id);
		h = holds(file, path);
		/* lost the link to another process: it may run the same program */
		if (h == 1 || (h < 0 && (link(tmp, file) == 0 || holds(file, path) == 1)))
			break;
	}
	unlink(tmp);
	return id;
}

__FDR_NO_INSTRUMENT int fdr__xray_main_claim(void)
{
	const char *dir = fdr__env(FDR_SYMDIR_ENV);
	char exe[PATH_MAX];
	ssize_t n;
	int id;

	if (fdr__image_is_prog())
		return 0;
	n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	if (n <= 0)
		return 0;	/* is_prog said PROG for this already */
	exe[n] = '\0';
	id = claim(dir && *dir ? dir : FDR_SYMDIR_DEFAULT, exe);
	if (!id || fdr__xray_dso_reserve(id, exe)) {
		fprintf(stderr, "fdr xray mode: note: no object id is left for %s, which "
			"the recorded program ran: its functions are shown with the "
			"program's names\n", exe);
		return -1;
	}
	fdr__xray_main_base = id << FDR_XRAY_DSO_SHIFT;
	return 0;
}
