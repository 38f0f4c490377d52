/* SPDX-License-Identifier: MIT */
/*
 * xray_mode.h - the "fdr" XRay log mode: its callbacks as an XRayLogImpl.
 */
#ifndef FDR_XRAY_MODE_H
#define FDR_XRAY_MODE_H

#include "xray_abi.h"

#define FDR_XRAY_MODE_NAME	"fdr"

extern const struct fdr_xray_log_impl fdr__xray_mode_impl;

/* The arg0 handler, also called by the mode's own trampolines
 * (xray_tramp_x86_64.S) with the sled's function id and entry type. */
void fdr__xray_fast_event(int32_t fid, enum fdr_xray_entry_type type);
/* The arg1 handler, likewise (arg-logging entry sleds). */
void fdr__xray_fast_arg1(int32_t fid, enum fdr_xray_entry_type type,
			uint64_t arg);

#endif /* FDR_XRAY_MODE_H */
