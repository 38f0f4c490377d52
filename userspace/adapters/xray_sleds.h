/* SPDX-License-Identifier: MIT */
/*
 * xray_sleds.h - point the patched XRay sleds of the executable at the
 * mode's own lean trampolines (xray_tramp_x86_64.S) instead of
 * compiler-rt's.
 *
 * Done once, by the autostart, after XRay patched the sleds
 * (patch_premain=true).  A later __xray_patch() rewrites the sleds to
 * compiler-rt's trampolines again; __xray_unpatch() disables them as
 * usual: XRay stays in charge of whether sleds are live.
 * $FDR_XRAY_SLEDS=xray leaves compiler-rt's trampolines in place.
 */
#ifndef FDR_XRAY_SLEDS_H
#define FDR_XRAY_SLEDS_H

#include <stdint.h>

/* 1 while the mode records: the trampolines call it; 0: they defer to
 * compiler-rt's trampolines (and so to whatever handler is installed). */
extern volatile uint8_t fdr__xray_fast_on;

/* Retarget entry, exit, tail-exit and arg-logging sleds that call
 * compiler-rt's trampolines.  Returns how many were retargeted, or
 * -errno (e.g. when the text cannot be made writable). */
int fdr__xray_sleds_retarget(void);

#endif /* FDR_XRAY_SLEDS_H */
