/* SPDX-License-Identifier: MIT */
/*
 * fdr_size_limit.h - the file size limit (ulimit -f, RLIMIT_FSIZE) check
 * before fdr grows a file.  Past the limit the kernel raises SIGXFSZ,
 * whose default action kills the process: the program an embedded region
 * is for, as libfdr grows the region's object; fdrd or fdr record, as
 * they write a log (its run's log unwritten).  Ignoring the signal would
 * be inherited by every program fdr record starts: so the writers check
 * first and fail before the write, as they do on a full disk.
 * In libfdr (control/size_limit.c), for libfdr and for fdrd's writers,
 * which link libfdr.a; not exported from libfdr.so (libfdr.map).
 */
#ifndef FDR_SIZE_LIMIT_H
#define FDR_SIZE_LIMIT_H

#include <stdint.h>

/* 0 if a file of size bytes fits this process's limit, else -EFBIG.
 * Each caller says what was too big, in its own words. */
int fdr__size_limit_check(uint64_t size);

#endif /* FDR_SIZE_LIMIT_H */
