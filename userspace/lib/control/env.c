// SPDX-License-Identifier: MIT
/*
 * env.c - fdr__env (fdr_env.h).
 *
 * Before libc sets environ (an instrumented .preinit_array function of a
 * dynamically linked program), getenv() sees nothing, and libfdr would
 * attach to the default device and record nothing.  The kernel keeps the
 * initial environment, readable in /proc/self/environ; it is read once
 * into a static buffer (the first EARLY_ENV_MAX bytes: fdr's variables
 * are set by fdr record, which puts them first) and searched there.
 * A variable the environment lacks is looked up in fdr record's memfd
 * (fdr_env.h), for the programs run with an environment of their own.
 */
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>
#include <unistd.h>

#include "fdr_env.h"
#include "internal.h"

#define EARLY_ENV_MAX	(32 * 1024)

extern char **environ;

/* NUL-separated NAME=value strings, read once from a file. */
struct env_copy {
	pthread_once_t once;
	size_t len;
	char buf[EARLY_ENV_MAX + 1];
};

static struct env_copy early = { .once = PTHREAD_ONCE_INIT };
static struct env_copy inherited = { .once = PTHREAD_ONCE_INIT };

/* Up to EARLY_ENV_MAX bytes of fd from offset 0. */
__FDR_NO_INSTRUMENT static void fill(struct env_copy *c, int fd)
{
	ssize_t n;

	while (c->len < EARLY_ENV_MAX &&
	       (n = pread(fd, c->buf + c->len, EARLY_ENV_MAX - c->len, (off_t)c->len)) > 0)
		c->len += (size_t)n;
	c->buf[c->len] = '\0';
}

__FDR_NO_INSTRUMENT static void read_early_env(void)
{
	int fd = open("/proc/self/environ", O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return;
	fill(&early, fd);
	close(fd);
}

/* fdr record's memfd at FDR_ENV_FD (fdr_env.h), if that is what the
 * descriptor is: any other file there is none of ours. */
__FDR_NO_INSTRUMENT static void read_inherited_env(void)
{
	static const char want[] = "/memfd:" FDR_ENV_MEMFD " ";
	char path[64], link[64];
	ssize_t n;

	snprintf(path, sizeof(path), "/proc/self/fd/%d", FDR_ENV_FD);
	n = readlink(path, link, sizeof(link) - 1);
	if (n < (ssize_t)sizeof(want) - 1 || memcmp(link, want, sizeof(want) - 1))
		return;
	fill(&inherited, FDR_ENV_FD);
}

/* NAME=value among the NUL-separated strings; a string cut at the end
 * of the buffer is not trusted. */
__FDR_NO_INSTRUMENT static const char *find(struct env_copy *c, void (*load)(void),
					    const char *name)
{
	size_t len = strlen(name);
	size_t i = 0;

	pthread_once(&c->once, load);
	while (i < c->len) {
		const char *s = c->buf + i;
		size_t slen = strnlen(s, c->len - i);

		if (i + slen == c->len)
			break;
		if (slen > len && s[len] == '=' && !memcmp(s, name, len))
			return s + len + 1;
		i += slen + 1;
	}
	return NULL;
}

__FDR_NO_INSTRUMENT const char *fdr__env(const char *name)
{
	const char *v;

	if (getauxval(AT_SECURE))
		return NULL;
	v = environ ? getenv(name) : find(&early, read_early_env, name);
	return v ? v : find(&inherited, read_inherited_env, name);
}
