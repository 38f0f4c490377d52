// SPDX-License-Identifier: MIT
/*
 * side_file.c - open a per-process side file, kept across exec()
 * (side_file.h).  No stdio, no malloc: called from the hooks' slow path.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <string.h>
#include <unistd.h>

#include <linux/fdr.h>
#include "side_file.h"

#define PRE_MAX		512	/* longer preambles are never "ours" */

__FDR_NO_INSTRUMENT uint64_t fdr__process_start(void)
{
	char buf[1024], *p;
	uint64_t v = 0;
	ssize_t n;
	int fd = open("/proc/self/stat", O_RDONLY | O_CLOEXEC), field = 2;

	if (fd < 0)
		return 0;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	buf[n > 0 ? n : 0] = '\0';
	p = strrchr(buf, ')');	/* the command name may hold anything */
	for (; p && *p && field < 22; p++)
		field += *p == ' ';
	for (; p && field == 22 && *p >= '0' && *p <= '9'; p++)
		v = v * 10 + (uint64_t)(*p - '0');
	return v;
}

__FDR_NO_INSTRUMENT static void write_all(int fd, const char *buf, size_t len)
{
	ssize_t ret;

	do
		ret = write(fd, buf, len);
	while (ret < 0 && errno == EINTR);
}

/* Did this very process write the file before an exec()?  A preamble
 * without a start time ("start 0") never matches. */
__FDR_NO_INSTRUMENT static int ours(int fd, const char *pre, size_t len)
{
	char head[PRE_MAX];

	return len <= sizeof(head) && !memmem(pre, len, " start 0\n", 9) &&
	       pread(fd, head, len, 0) == (ssize_t)len && !memcmp(head, pre, len);
}

/* "# exec <path>\n": the lines after it are the new image's. */
__FDR_NO_INSTRUMENT static void note_exec(int fd)
{
	char line[PATH_MAX + 16] = "# exec ";
	size_t at = strlen(line);
	ssize_t n = readlink("/proc/self/exe", line + at, PATH_MAX - 1);

	for (ssize_t i = 0; i < n; i++)	/* one line, whatever the path */
		if ((unsigned char)line[at + i] < 0x20)
			line[at + i] = '?';
	at += n > 0 ? (size_t)n : 0;
	line[at++] = '\n';
	write_all(fd, line, at);
}

__FDR_NO_INSTRUMENT int fdr__side_file_open(const char *path, const char *pre, size_t len)
{
	int fd = open(path, O_RDWR | O_CREAT | O_APPEND | O_CLOEXEC, 0644);

	if (fd < 0)
		return -1;
	if (ours(fd, pre, len)) {
		note_exec(fd);
		return fd;
	}
	if (ftruncate(fd, 0)) {
		int err = errno;

		close(fd);
		errno = err;
		return -1;
	}
	write_all(fd, pre, len);
	return fd;
}
