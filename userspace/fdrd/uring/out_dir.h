/* SPDX-License-Identifier: MIT */
/*
 * out_dir.h - the output directory, opened once per flush: every file of
 * the flush is created, linked, checked and removed relative to this
 * descriptor, so a directory (or a path component) swapped for a symlink
 * while a flush runs cannot send the files elsewhere.
 */
#ifndef FDRD_OUT_DIR_H
#define FDRD_OUT_DIR_H

#include <stdbool.h>
#include <stddef.h>

struct out_dir {
	int fd;			/* O_DIRECTORY|O_NOFOLLOW; -1 when closed */
	const char *path;	/* for messages only, never opened again */
};

/*
 * Open path as the output directory.  Refused: a symlink (O_NOFOLLOW),
 * not a directory, or a directory every user may write to without the
 * sticky bit (another user could then rename, remove or replace the
 * logs) unless allow_insecure.  Returns 0, or a negative errno with err
 * naming the directory, the cause and the fix.
 */
int out_dir_open(struct out_dir *d, const char *path, bool allow_insecure,
		 char *err, size_t errlen);
void out_dir_close(struct out_dir *d);

/* The directory was removed since it was opened (no name links to it). */
bool out_dir_gone(const struct out_dir *d);

/* 1 if name exists in d (a dangling symlink does), 0 if not, -errno. */
int out_dir_has(const struct out_dir *d, const char *name);

#endif /* FDRD_OUT_DIR_H */
