/* SPDX-License-Identifier: MIT */
/*
 * config_file.h - fdrd's options file (--config FILE): the options as on
 * the command line, separated by blanks or newlines, '#' to the end of a
 * line a comment.  Read at start and again on SIGHUP (systemctl reload).
 */
#ifndef FDRD_CONFIG_FILE_H
#define FDRD_CONFIG_FILE_H

#include <stddef.h>

/* Larger files are refused: an options file is a few lines. */
#define CONFIG_FILE_MAX	(64 * 1024)

struct config_args {
	char *text;		/* the file, cut into NUL-ended words */
	char **argv;		/* "fdrd", then the words, then NULL */
	int argc;
};

/* 0, or -1 with err naming the file and the cause. */
int config_file_read(const char *path, struct config_args *a, char *err, size_t len);
void config_file_free(struct config_args *a);

#endif /* FDRD_CONFIG_FILE_H */
