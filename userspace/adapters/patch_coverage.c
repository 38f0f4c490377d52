// SPDX-License-Identifier: MIT
/* patch_coverage.c - the coverage file of fdr record -P (patch_coverage.h). */
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <unistd.h>

#include "fdr_env.h"
#include "patch_coverage.h"
#include "sym_map.h"

void fdr__patch_coverage_write(const struct fdr_patch_coverage *c, bool ok)
{
	const char *dir = fdr__env(FDR_SYMDIR_ENV);
	char path[PATH_MAX], exe[PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	int fd;

	exe[n > 0 ? n : 0] = 0;
	if (snprintf(path, sizeof(path), "%s/" FDR_PATCH_COVERAGE_PREFIX "%d.txt",
		     dir && *dir ? dir : FDR_SYMDIR_DEFAULT, (int)getpid()) >= (int)sizeof(path))
		return;
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd < 0)
		return;
	dprintf(fd, "exe\t%s\n", exe);
	if (!ok)
		dprintf(fd, "error\tcannot read the program's symbol table or start "
			"capstone\n");
	dprintf(fd, "functions\t%u\nselected\t%u\n", c->functions, c->selected);
	for (int w = 0; w < FDR_PATCH_NWHY; w++)
		dprintf(fd, "%s\t%u\n", fdr__patch_why_name[w], c->n[w]);
	close(fd);
}
