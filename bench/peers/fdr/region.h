/* SPDX-License-Identifier: MIT */
/*
 * region.h - a private embedded fdr region for one benchmark process,
 * created and removed with the fdr_ctl_* API (what `fdrctl init
 * --embedded NAME` does), so runs never share or leak a region.
 */
#ifndef BENCH_FDR_REGION_H
#define BENCH_FDR_REGION_H

#include <stddef.h>

/* Create embedded:bench-<pid>; its target string goes to target[]. */
int bench_region_create(char *target, size_t len);

/* Finalize, print the region's counters on stderr, and remove it. */
int bench_region_destroy(void);

#endif
