/* SPDX-License-Identifier: MIT */
/*
 * fs_info.h - print the kernel and the file system of a directory (statfs
 * type, mount source and options) for a benchmark's header.
 */
#ifndef FDR_BENCH_FS_INFO_H
#define FDR_BENCH_FS_INFO_H

#include <stdio.h>

void fs_info_print(FILE *to, const char *dir);

#endif /* FDR_BENCH_FS_INFO_H */
