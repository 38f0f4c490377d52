/* SPDX-License-Identifier: MIT */
/*
 * writer.h - a stress writer process: `threads` slots, each running one
 * thread at a time that records pattern.h pairs in batches for a random
 * lifetime, then exits and is replaced (thread churn).  After every batch
 * the thread checks whether the batch was published (region_view.h) and
 * says so in the tally.  Runs until the tally's stop flag or SIGKILL.
 */
#ifndef REL_WRITER_H
#define REL_WRITER_H

#include <stdbool.h>
#include <stdint.h>
#include "tally.h"

struct writer_cfg {
	const char *target;
	struct tally *tally;
	unsigned threads;		/* concurrent writer threads */
	unsigned batch;			/* pairs between two checks */
	unsigned batch_sleep_us;	/* pause after a batch: the data rate */
	unsigned min_batches, max_batches; /* a thread's lifetime */
	bool hold_check;
	unsigned seed;
};

/* Exit codes besides 0. */
#define WRITER_EXIT_NOT_ATTACHED	3	/* no region mapped: start again */
#define WRITER_EXIT_ATTACH_FAILED	5	/* fdr_attach() failed otherwise */
#define WRITER_EXIT_VIEW_FAILED		6	/* view_open() failed */

/* Records pair k of thread uid (pattern.h) through libfdr. */
void write_pair(uint32_t uid, uint64_t k);

/* The body of a forked writer process; never returns. */
void writer_main(const struct writer_cfg *cfg) __attribute__((noreturn));

#endif
