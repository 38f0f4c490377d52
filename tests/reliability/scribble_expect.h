/* SPDX-License-Identifier: MIT */
/*
 * scribble_expect.h - what a log fdrd wrote on the device must hold after
 * a scribble of the control page's copies of generation, flags, TSC rate
 * or finalize trigger: the kernel keeps its own, fdrd lays the log out
 * from those (STATUS), so the log has every pair the writers made and the
 * kernel's facts, not the scribbled ones.
 */
#ifndef REL_SCRIBBLE_EXPECT_H
#define REL_SCRIBBLE_EXPECT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <linux/fdr.h>

/*
 * Pairs (uid 1..writers, k 0..pairs-1 of pattern.h, without inner calls)
 * whose EnterArg with its argument or whose Exit the log lacks; all of
 * them if the log cannot be read.
 */
size_t expect_missing_pairs(const char *log, uint32_t writers, uint64_t pairs);

/* The header's cycle frequency and TSC flags are st's.  false with a
 * description of the difference in why. */
bool expect_header(const char *log, const struct fdr_status *st, char *why,
		   size_t len);

/* The side table's generation and finalize reason, signal and pid are
 * st's.  false with a description in why. */
bool expect_side_table(const char *log, const struct fdr_status *st, char *why,
		       size_t len);

#endif
