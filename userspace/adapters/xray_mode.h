/* SPDX-License-Identifier: MIT */
/*
 * xray_mode.h - the "fdr" XRay log mode: its callbacks as an XRayLogImpl.
 */
#ifndef FDR_XRAY_MODE_H
#define FDR_XRAY_MODE_H

#include "xray_abi.h"

#define FDR_XRAY_MODE_NAME	"fdr"

extern const struct fdr_xray_log_impl fdr_xray_mode_impl;

#endif /* FDR_XRAY_MODE_H */
