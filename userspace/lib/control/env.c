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
 */
#include <fcntl.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>
#include <unistd.h>

#include "fdr_env.h"
#include "internal.h"

#define EARLY_ENV_MAX	(32 * 1024)

extern char **environ;

static char early_env[EARLY_ENV_MAX + 1];
static size_t early_len;

__FDR_NO_INSTRUMENT static void read_early_env(void)
{
	int fd = open("/proc/self/environ", O_RDONLY | O_CLOEXEC);
	ssize_t n;

	if (fd < 0)
		return;
	while (early_len < EARLY_ENV_MAX &&
	       (n = read(fd, early_env + early_len, EARLY_ENV_MAX - early_len)) > 0)
		early_len += (size_t)n;
	close(fd);
	early_env[early_len] = '\0';
}

/* NAME=value among the NUL-separated strings; a string cut at the end
 * of the buffer is not trusted. */
__FDR_NO_INSTRUMENT static const char *early_getenv(const char *name)
{
	static pthread_once_t once = PTHREAD_ONCE_INIT;
	size_t len = strlen(name);
	size_t i = 0;

	pthread_once(&once, read_early_env);
	while (i < early_len) {
		const char *s = early_env + i;
		size_t slen = strnlen(s, early_len - i);

		if (i + slen == early_len)
			break;
		if (slen > len && s[len] == '=' && !memcmp(s, name, len))
			return s + len + 1;
		i += slen + 1;
	}
	return NULL;
}

__FDR_NO_INSTRUMENT const char *fdr__env(const char *name)
{
	if (getauxval(AT_SECURE))
		return NULL;
	if (environ)
		return getenv(name);
	return early_getenv(name);
}
