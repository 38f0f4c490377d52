// SPDX-License-Identifier: MIT
/* config_file.c - read fdrd's options file into words (config_file.h). */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "config_file.h"

/* The whole file, NUL-terminated, at most CONFIG_FILE_MAX bytes. */
static char *slurp(const char *path, char *err, size_t len)
{
	char *text = malloc(CONFIG_FILE_MAX + 1);
	size_t n = 0;
	ssize_t r = 1;
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0 || !text) {
		snprintf(err, len, "options file %s: %s", path, strerror(fd < 0 ? errno : ENOMEM));
		goto fail;
	}
	while (n <= CONFIG_FILE_MAX && (r = read(fd, text + n, CONFIG_FILE_MAX + 1 - n)) > 0)
		n += (size_t)r;
	if (r < 0 || n > CONFIG_FILE_MAX) {
		snprintf(err, len, "options file %s: %s", path,
			 r < 0 ? strerror(errno) : "larger than 64 KiB");
		goto fail;
	}
	if (memchr(text, '\0', n)) {
		snprintf(err, len, "options file %s: a NUL byte: not a text file", path);
		goto fail;
	}
	close(fd);
	text[n] = '\0';
	return text;
fail:
	if (fd >= 0)
		close(fd);
	free(text);
	return NULL;
}

/* Cut text into words in place (when words is set); returns how many. */
static int split(char *text, char **words)
{
	int n = 0;

	for (char *p = text; *p;) {
		size_t w = strcspn(p, " \t\r\n#");

		if (w) {
			if (words)
				words[n] = p;
			n++;
			p += w;
		}
		if (*p == '#') {
			char *eol = p + strcspn(p, "\n");

			if (words)
				*p = '\0';
			p = eol;
		} else if (*p) {
			if (words)
				*p = '\0';
			p++;
		}
	}
	return n;
}

int config_file_read(const char *path, struct config_args *a, char *err, size_t len)
{
	static char name[] = "fdrd";
	int n;

	memset(a, 0, sizeof(*a));
	a->text = slurp(path, err, len);
	if (!a->text)
		return -1;
	n = split(a->text, NULL);
	a->argv = calloc((size_t)n + 2, sizeof(*a->argv));
	if (!a->argv) {
		snprintf(err, len, "options file %s: %s", path, strerror(ENOMEM));
		config_file_free(a);
		return -1;
	}
	a->argv[0] = name;
	split(a->text, a->argv + 1);
	a->argc = n + 1;
	return 0;
}

void config_file_free(struct config_args *a)
{
	free(a->argv);
	free(a->text);
	memset(a, 0, sizeof(*a));
}
