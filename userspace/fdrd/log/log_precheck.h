/* SPDX-License-Identifier: MIT */
/*
 * log_precheck.h - validate during the grace period.
 *
 * fdrd sleeps the grace period after a finalize anyway.  Buffers already
 * RELEASED then are never written again in this generation (a writer
 * that takes one again gets a new seq), so their record walk can be done
 * during the grace period and reused at flush time for every buffer whose
 * (generation, seq, extents) and RELEASED state are unchanged.
 */
#ifndef FDRD_LOG_PRECHECK_H
#define FDRD_LOG_PRECHECK_H

#include "log_layout.h"

struct precheck_entry {
	bool valid;		/* walked, and RELEASED when walked */
	uint32_t generation;
	uint64_t seq, extents;
	struct fdr__buffer_check chk;
};

struct log_precheck {
	struct precheck_entry *entries;	/* by descriptor index */
	uint32_t nr;
};

/*
 * Walk the RELEASED buffers of the region mapped at ctl, laid out from
 * trusted (NULL: the control page; log_layout.h).  0 or -errno.
 */
int log_precheck_build(const struct fdr_control *ctl, size_t map_len,
		       const struct fdr_status *trusted,
		       struct log_precheck *pc);

/* Let l reuse the walks of its unchanged buffers; returns how many. */
size_t log_precheck_apply(struct log_layout *l, const struct log_precheck *pc);
void log_precheck_free(struct log_precheck *pc);

#endif /* FDRD_LOG_PRECHECK_H */
