/* SPDX-License-Identifier: MIT */
/*
 * fdr_xray_ids.h - how an XRay function id names its object: the
 * adapters number a shared library's functions (object << SHIFT) | n
 * (adapters/xray_dso.h), and fdr record names them back
 * (tools/fdr/xray_objects.c).  One place, so the two cannot disagree.
 */
#ifndef FDR_XRAY_IDS_H
#define FDR_XRAY_IDS_H

#define FDR_XRAY_DSO_SHIFT	24
#define FDR_XRAY_DSO_MAX	15	/* 28-bit ids in the log: objects 1 to 15 */
/* A library call's id in an XRay build (adapters/plt_self.c): hashed,
 * 2^27 | h, always with this bit set, so never (object << 24) | n for an
 * object of fewer than 2^23 functions. */
#define FDR_XRAY_LIBCALL_BIT	(1u << 23)

#endif /* FDR_XRAY_IDS_H */
