/* SPDX-License-Identifier: MIT */
/*
 * xray_filter.h - record only some functions, by patching only their
 * sleds: $FDR_XRAY_FUNCTIONS, set by `fdr record -F/-N`, is
 * "only:ID,ID,..." (every other sled unpatched) or "skip:ID,..." (those
 * unpatched).  An unpatched sled costs its few nops and records nothing.
 */
#ifndef FDR_XRAY_FILTER_H
#define FDR_XRAY_FILTER_H

/*
 * Apply spec (NULL or "": nothing) to the sleds XRay patched before main.
 * 0, or -EINVAL (bad spec, said on stderr) / -EIO (XRay refused).
 */
int fdr__xray_filter_apply(const char *spec);

#endif /* FDR_XRAY_FILTER_H */
