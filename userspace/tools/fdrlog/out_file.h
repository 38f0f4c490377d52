/* SPDX-License-Identifier: MIT */
/*
 * out_file.h - -o OUT for every command that writes a file: a temporary
 * next to OUT, renamed into place only when everything was written, so a
 * failed run leaves nothing behind.
 */
#ifndef FDRLOG_OUT_FILE_H
#define FDRLOG_OUT_FILE_H

#include <stddef.h>

/* stdout for a NULL path, else a temporary (its name in tmp); -1 after a
 * message naming it. */
int out_file_open(const char *cmd, const char *path, char *tmp, size_t size);
/* Rename into place if err == 0, else remove; the exit status (0 or 1). */
int out_file_finish(const char *cmd, const char *path, const char *tmp, int fd, int err);

#endif
