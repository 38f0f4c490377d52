/* SPDX-License-Identifier: MIT */
/*
 * log_check.h - does a scanned log hold exactly what the stress writers
 * wrote (pattern.h), and everything they confirmed (tally.h)?
 *
 * Each tid's buffers, in log order, form that thread's stream.  In it the
 * pairs of one writer uid must be consecutive (k, k+1, ...) and complete;
 * only the first and last pair of a uid's run may be cut (the stream
 * starts after a finalize, or the thread was killed mid-pair).
 */
#ifndef REL_LOG_CHECK_H
#define REL_LOG_CHECK_H

#include <stdbool.h>
#include <stdint.h>
#include "log_scan.h"
#include "tally.h"

/* The complete pairs [a, b] of one writer uid found in the log. */
struct uid_run {
	uint32_t uid;
	int32_t tid;
	uint64_t a, b;
	uint64_t next_k;	/* the pair expected next */
	uint64_t pairs;		/* complete pairs in the run */
	int pair_open, step;
};

struct check_result {
	struct uid_run *runs;
	size_t nr_runs;
	uint64_t records_checked;	/* records matched to the pattern */
	uint64_t pairs;			/* complete pairs */
	uint64_t confirmed_ranges;	/* tally entries checked */
	uint64_t confirmed_pairs;
	uint64_t failures;
	char first_failure[512];
};

/* The pattern check; failures counted in r (first one described). */
/* overwritten: the ring recycled buffers (or writers dropped records):
 * a stream may then go on after lost buffers, at a buffer's start, with
 * later pairs only (the side table says so: log_judge.c). */
void check_pattern(const struct scan_log *log, bool overwritten,
		   struct check_result *r);
/* Every tally entry of `generation` in entries [from, tally_count) is
 * covered by a run of the log. */
void check_tally(const struct tally *t, uint64_t from, uint32_t generation,
		 struct check_result *r);
void check_result_free(struct check_result *r);

#endif
