/* SPDX-License-Identifier: MIT */
/*
 * xray_threshold.h - hand the config's func_duration_threshold_us to
 * libfdr, which reads its options when the process attaches.
 */
#ifndef FDR_XRAY_THRESHOLD_H
#define FDR_XRAY_THRESHOLD_H

/* Returns 0, or -1 after printing why. */
int fdr__xray_set_threshold(unsigned long threshold_us);

#endif /* FDR_XRAY_THRESHOLD_H */
