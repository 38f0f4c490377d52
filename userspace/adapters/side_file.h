/* SPDX-License-Identifier: MIT */
/*
 * side_file.h - the per-process files the hooks write next to the log
 * ($FDR_SYMDIR/fdr-syms.<pid>.map, fdr-xray-dso.<pid>.map), kept across
 * an exec().
 *
 * Each begins with a preamble of its own kind, whose last line is
 * "# pid <pid> start <ticks>" (the process's start time, which exec()
 * keeps and another process with the same pid does not share).  A new
 * image that finds its own process's preamble appends, after a
 * "# exec <path>" line: the lines of the image before the exec still name
 * what it recorded.  Anything else in the file (an earlier process with
 * this pid, bytes someone wrote there) is replaced.
 */
#ifndef FDR_SIDE_FILE_H
#define FDR_SIDE_FILE_H

#include <stddef.h>
#include <stdint.h>

/* This process's start time in clock ticks since boot, 0 if unknown. */
uint64_t fdr__process_start(void);

/* Open path for appending as above; pre (len bytes) is the preamble, made
 * with fdr__process_start().  The descriptor, or -1 with errno set. */
int fdr__side_file_open(const char *path, const char *pre, size_t len);

#endif /* FDR_SIDE_FILE_H */
