// SPDX-License-Identifier: MIT
/*
 * env_fd.c - leave fdr's variables where a program run with an
 * environment of its own still finds them (fdr_env.h, FDR_ENV_FD).
 *
 * Called in PROG's child after the variables are set, just before
 * exec(): the memfd is inherited by PROG and everything it runs.
 * -F/-N and the library-call preload are PROG's alone and are not
 * passed on.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "fdr_env.h"
#include "record.h"

static const char *const passed[] = {
	"FDR_TARGET", "FDR_OPTIONS", "FDR_SYMDIR", FDR_PROG_ENV, "XRAY_OPTIONS",
	"FDR_LIBCALL",
};

static int put_vars(int fd)
{
	for (size_t i = 0; i < sizeof(passed) / sizeof(passed[0]); i++) {
		const char *v = getenv(passed[i]);
		char line[8192];
		int n;

		if (!v)
			continue;
		n = snprintf(line, sizeof(line), "%s=%s", passed[i], v);
		if (n < 0 || (size_t)n >= sizeof(line))
			return -E2BIG;
		if (write(fd, line, (size_t)n + 1) != n + 1)	/* with its NUL */
			return -EIO;
	}
	return 0;
}

int fdr__env_fd_pass(void)
{
	int fd = memfd_create(FDR_ENV_MEMFD, 0), r;

	if (fd < 0)
		return -errno;
	r = put_vars(fd);
	if (!r && fd != FDR_ENV_FD && dup2(fd, FDR_ENV_FD) < 0)
		r = -errno;
	if (fd != FDR_ENV_FD)
		close(fd);
	return r;
}
