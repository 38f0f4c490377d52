// SPDX-License-Identifier: MIT
/*
 * rewind.c - erase calls shorter than func_duration_threshold_us, as
 * compiler-rt's FDRController::rewindRecords does: drop the Enter of the
 * call being left, and when no undoable Enter remains, walk back over the
 * (Enter, TailExit) pairs of a tail-call chain, erasing each pair whose
 * span up to now is under the threshold.
 *
 * latest_tsc always ends as the TSC of the last record kept, so later
 * deltas stay exact (compiler-rt, after erasing a pair, keeps the erased
 * Enter's TSC).  The pair walk also checks the record kinds and stops at
 * anything that is not an adjacent (Enter, TailExit) pair, e.g. when a
 * NewCPUId or TSCWrap was written between them.
 */
#include "recorder.h"

struct fn_rec {
	uint32_t word0;
	uint32_t delta;
};

static __FDR_NO_INSTRUMENT struct fn_rec
read_fn(const struct fdr_thread *t, uint64_t at)
{
	struct fn_rec f;

	memcpy(&f, t->buf + at, sizeof(f));
	return f;
}

static __FDR_NO_INSTRUMENT bool is_fn(struct fn_rec f, uint32_t kind)
{
	return !(f.word0 & 1) && FDR_FN_KIND(f.word0) == kind;
}

/* The smallest position a rewind may reach: preamble + NewCPUId. */
#define REWIND_FLOOR	(FDR_BUFFER_PREAMBLE_SIZE + FDR_METADATA_SIZE)

__FDR_NO_INSTRUMENT bool fdr__rewind(struct fdr_thread *t, uint64_t tsc)
{
	uint64_t threshold = t->threshold;

	if (fdr__erase_enter(t, t->pos))
		return true;
	while (t->undo_tails && t->pos >= REWIND_FLOOR + 2 * FDR_FUNCTION_SIZE) {
		struct fn_rec tail = read_fn(t, t->pos - FDR_FUNCTION_SIZE);
		struct fn_rec pair = read_fn(t, t->pos - 2 * FDR_FUNCTION_SIZE);
		uint64_t pair_enter_tsc = t->latest_tsc - tail.delta;

		if (!is_fn(tail, FDR_FN_TAIL_EXIT) || !is_fn(pair, FDR_FN_ENTER) ||
		    tsc - pair_enter_tsc >= threshold)
			break;
		t->undo_tails--;
		t->pos -= 2 * FDR_FUNCTION_SIZE;
		t->latest_tsc = pair_enter_tsc - pair.delta;
	}
	t->undo_tails = 0;	/* none left, or stopped at a pair that stays */
	return true;
}
