/* SPDX-License-Identifier: MIT */
/*
 * region.h - an embedded fdr region for one benchmark run, created and
 * removed with the fdr_ctl_* API (what `fdrctl init --embedded NAME`
 * does), so runs never share or leak a region.
 */
#ifndef BENCH_FDR_REGION_H
#define BENCH_FDR_REGION_H

/* INIT the region named by target ("embedded:NAME"). */
int bench_region_create(const char *target);

/*
 * Finalize it (if no one has yet), print its counters on stderr as a
 * '# ' line, and remove it.  Fails if no buffer was ever taken, i.e.
 * nothing was recorded.
 */
int bench_region_destroy(const char *target);

#endif
