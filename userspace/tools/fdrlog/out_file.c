// SPDX-License-Identifier: MIT
/* out_file.c - write OUT atomically (out_file.h). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "out_file.h"

int out_file_open(const char *cmd, const char *path, char *tmp, size_t size)
{
	int fd;

	if (!path)
		return STDOUT_FILENO;
	snprintf(tmp, size, "%s.tmpXXXXXX", path);
	fd = mkstemp(tmp);
	if (fd < 0)
		fprintf(stderr, "fdr %s: cannot create %s: %s\n", cmd, tmp, strerror(errno));
	return fd;
}

int out_file_finish(const char *cmd, const char *path, const char *tmp, int fd, int err)
{
	if (!path)
		return err;
	if (!err && fchmod(fd, 0644) == 0 && close(fd) == 0 && rename(tmp, path) == 0)
		return 0;
	if (!err)
		fprintf(stderr, "fdr %s: cannot write %s: %s\n", cmd, path, strerror(errno));
	unlink(tmp);
	return 1;
}
