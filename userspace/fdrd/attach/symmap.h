/* SPDX-License-Identifier: MIT */
/*
 * symmap.h - the names of an attached --gcc or --patchable program, for
 * `fdr record -p` and `fdrd --attach-pid`.  Its runtime names every
 * function it records in a sym-map file of its own
 * ($FDR_SYMDIR/fdr-syms.PID.map, else /tmp), kept open for its life; the
 * recorder opens that file through /proc/PID/fd (so it still reads it if
 * the program exits or the file is removed meanwhile) and copies it next
 * to its logs, where `fdr report` finds it.
 */
#ifndef FDR_SYMMAP_H
#define FDR_SYMMAP_H

#include <stdbool.h>
#include <sys/types.h>

/* Its sym-map, opened read-only; -1: none open (yet). */
int fdr__symmap_open(pid_t pid);
/* Copy from fd to the new file to (replace: or over it, whole or not at
 * all: through to.tmp and a rename).  0 or -errno. */
int fdr__symmap_copy(int fd, const char *to, bool replace);

#endif
