// SPDX-License-Identifier: MIT
/*
 * prog_libs.c - the shared libraries PROG is linked against, as the
 * dynamic loader resolves them: PROG run with LD_TRACE_LOADED_OBJECTS=1
 * (what ldd does; the loader lists the objects and exits before any of
 * PROG's code runs).  fdr record -F/-N looks names up in their XRay maps.
 * Lines "NAME => /abs/path (0x...)" are taken; anything else is ignored.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "record.h"

/* "\tlibx.so => /path/libx.so (0x...)": the path, in place, or NULL. */
static char *resolved_path(char *line)
{
	char *arrow = strstr(line, " => "), *path, *end;

	if (!arrow)
		return NULL;
	path = arrow + 4;
	end = strstr(path, " (0x");
	if (path[0] != '/' || !end)
		return NULL;
	*end = 0;
	return path;
}

static void read_list(int fd, struct prog_libs *l)
{
	FILE *f = fdopen(fd, "r");
	char line[PATH_MAX + 128];

	while (f && fgets(line, sizeof(line), f)) {
		char *path = resolved_path(line), **v;

		if (!path || l->n == 256)
			continue;
		v = realloc(l->path, (l->n + 1) * sizeof(*v));
		if (!v)
			break;
		l->path = v;
		if ((l->path[l->n] = strdup(path)))
			l->n++;
	}
	if (f)
		fclose(f);
	else
		close(fd);
}

int fdr__prog_libs(const char *prog, struct prog_libs *l)
{
	int fds[2], status;
	pid_t pid;

	memset(l, 0, sizeof(*l));
	if (pipe2(fds, O_CLOEXEC))
		return -errno;
	pid = fork();
	if (pid < 0) {
		close(fds[0]);
		close(fds[1]);
		return -errno;
	}
	if (pid == 0) {
		dup2(fds[1], STDOUT_FILENO);
		setenv("LD_TRACE_LOADED_OBJECTS", "1", 1);
		execl(prog, prog, (char *)NULL);
		_exit(127);
	}
	close(fds[1]);
	read_list(fds[0], l);
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	return 0;
}

void fdr__prog_libs_free(struct prog_libs *l)
{
	for (size_t i = 0; i < l->n; i++)
		free(l->path[i]);
	free(l->path);
	memset(l, 0, sizeof(*l));
}
