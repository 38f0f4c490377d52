/* SPDX-License-Identifier: (GPL-2.0 WITH Linux-syscall-note) OR MIT */
/*
 * fdr_flush.h - the legal flush transitions, one table for fdr.ko
 * (kmod/state.c) and libfdr's embedded backend (ctl_embedded.c), which
 * must refuse exactly what the device refuses.
 *
 * In FINALIZED: BEGIN from NOT_FLUSHING or FLUSHED, DONE and ABORT from
 * FLUSHING.  In a stream region (FDR_CTL_STREAM) also while INITIALIZED:
 * BEGIN from NOT_FLUSHING (the stream flush, which stays FLUSHING through
 * the finalize), ABORT from FLUSHING; DONE waits for FINALIZED (EBUSY), as
 * a stream flush done before it would leave later data unflushed.
 */
#ifndef _UAPI_LINUX_FDR_FLUSH_H
#define _UAPI_LINUX_FDR_FLUSH_H

#include <linux/fdr.h>

enum fdr_flush_op {
	FDR_FLUSH_OP_BEGIN,
	FDR_FLUSH_OP_DONE,
	FDR_FLUSH_OP_ABORT,
	FDR_FLUSH_NR_OPS,
};

/* Bit of a flush state in fdr_flush_rule.from[][]. */
#define FDR_FLUSH_FROM(fs)	(1u << (fs))
#define FDR_FLUSH_NR_STATES	(FDR_STATE_FINALIZED + 1)	/* enum fdr_state */
#define FDR_FLUSH_NR_FLUSH_STATES	(FDR_FLUSH_FLUSHED + 1)

/*
 * fdr_flush_rules[op]: the flush state op leads to, and from[stream][state]
 * the flush states it may start from, in a region with (1) or without (0)
 * FDR_CTL_STREAM in each state; a state or flush state out of range may
 * start nothing (the embedded control page is shared memory: check).
 */
static const struct fdr_flush_rule {
	__u8 to;
	__u8 from[2][FDR_FLUSH_NR_STATES];
} fdr_flush_rules[FDR_FLUSH_NR_OPS] = {
	[FDR_FLUSH_OP_BEGIN] = {
		.to = FDR_FLUSH_FLUSHING,
		.from = {
			{ [FDR_STATE_FINALIZED] = FDR_FLUSH_FROM(FDR_FLUSH_NOT_FLUSHING) |
						  FDR_FLUSH_FROM(FDR_FLUSH_FLUSHED) },
			{ [FDR_STATE_INITIALIZED] = FDR_FLUSH_FROM(FDR_FLUSH_NOT_FLUSHING),
			  [FDR_STATE_FINALIZED] = FDR_FLUSH_FROM(FDR_FLUSH_NOT_FLUSHING) |
						  FDR_FLUSH_FROM(FDR_FLUSH_FLUSHED) },
		},
	},
	[FDR_FLUSH_OP_DONE] = {
		.to = FDR_FLUSH_FLUSHED,
		.from = {
			{ [FDR_STATE_FINALIZED] = FDR_FLUSH_FROM(FDR_FLUSH_FLUSHING) },
			{ [FDR_STATE_FINALIZED] = FDR_FLUSH_FROM(FDR_FLUSH_FLUSHING) },
		},
	},
	[FDR_FLUSH_OP_ABORT] = {
		.to = FDR_FLUSH_NOT_FLUSHING,
		.from = {
			{ [FDR_STATE_FINALIZED] = FDR_FLUSH_FROM(FDR_FLUSH_FLUSHING) },
			{ [FDR_STATE_INITIALIZED] = FDR_FLUSH_FROM(FDR_FLUSH_FLUSHING),
			  [FDR_STATE_FINALIZED] = FDR_FLUSH_FROM(FDR_FLUSH_FLUSHING) },
		},
	},
};

#endif /* _UAPI_LINUX_FDR_FLUSH_H */
