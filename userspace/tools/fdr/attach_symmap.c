// SPDX-License-Identifier: MIT
/*
 * attach_symmap.c - the names of an attached --gcc or --patchable
 * program, copied into DIR, where fdr report finds the sym-maps of a run
 * it started (the reading is shared with fdrd: attach/symmap.c).
 */
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "record.h"
#include "symmap.h"

int fdr__attach_symmap_open(pid_t pid)
{
	return fdr__symmap_open(pid);
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
	r = fdr__symmap_copy(fd, to, false);
	close(fd);
	if (r) {
		fprintf(stderr, "fdr record: %s: %s\n", to, strerror(-r));
		return FDR_EXIT_FAILED;
	}
	return 0;
}
