/* SPDX-License-Identifier: MIT */
/*
 * xray_mode.h - the "fdr" XRay log mode: its callbacks as an XRayLogImpl.
 */
#ifndef FDR_XRAY_MODE_H
#define FDR_XRAY_MODE_H

#include <stddef.h>
#include <stdint.h>

#include "xray_abi.h"

#define FDR_XRAY_MODE_NAME	"fdr"

extern const struct fdr_xray_log_impl fdr__xray_mode_impl;

/* The arg0 handler, also called by the mode's own trampolines
 * (xray_tramp_x86_64.S) with the sled's function id and entry type. */
void fdr__xray_fast_event(int32_t fid, enum fdr_xray_entry_type type);
/* The arg1 handler, likewise (arg-logging entry sleds). */
void fdr__xray_fast_arg1(int32_t fid, enum fdr_xray_entry_type type,
			uint64_t arg);
/* The custom-event handler. */
void fdr__xray_custom_event(void *data, size_t len);

/* Forget the first log_init's target and threshold, after fdr_detach():
 * for `fdr record -p`, which attaches and detaches a running program. */
void fdr__xray_mode_forget(void);

/* What the mode installs in compiler-rt: the three handlers above behind
 * shims that also keep the vector state (xray_tramp_x86_64.S), which
 * compiler-rt's trampolines save only in part. */
void fdr__xray_arg0_shim(int32_t fid, enum fdr_xray_entry_type type);
void fdr__xray_arg1_shim(int32_t fid, enum fdr_xray_entry_type type,
			 uint64_t arg);
void fdr__xray_event_shim(void *data, size_t len);

#endif /* FDR_XRAY_MODE_H */
