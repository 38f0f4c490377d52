/* SPDX-License-Identifier: MIT */
/*
 * fdr_fast.h - libfdr's record fast path as inline functions, for the
 * adapters in this tree (XRay handlers, -finstrument-functions hooks) that
 * want to skip a call per event.  Internal: it knows libfdr's per-thread
 * state, so it must come from the same source tree as the library it is
 * linked with.  Include with -I<top>/userspace/lib.
 *
 *   fdr_fast_enter(fid), fdr_fast_exit(fid), fdr_fast_tail_exit(fid)
 *
 * behave exactly like fdr_enter/fdr_exit/fdr_tail_exit: the common case
 * (a held buffer with room, same CPU, a delta that fits, no rewind) is
 * done inline; everything else calls the library.
 */
#ifndef FDR_FAST_H
#define FDR_FAST_H

#include "recorder.h"

#define FDR_FAST_INLINE	static inline __attribute__((always_inline, no_instrument_function))

/* The common case: same CPU, a delta that fits, not the buffer's first
 * record.  (An unsigned delta also catches a TSC that went backwards.) */
FDR_FAST_INLINE bool fdr__no_preamble(const struct fdr_thread *t, uint64_t tsc,
				      uint32_t cpu)
{
	return cpu == t->cpu && tsc - t->latest_tsc <= (uint64_t)INT32_MAX &&
	       t->latest_tsc != 0;
}

FDR_FAST_INLINE void fdr__append_fn(struct fdr_thread *t, uint32_t kind,
				    int32_t fid, uint64_t tsc)
{
	fdr__put_function(t->buf + t->pos, kind, fid,
			  (uint32_t)(tsc - t->latest_tsc));
	t->pos += FDR_FUNCTION_SIZE;
	t->latest_tsc = tsc;
	fdr__publish(t);
}

/*
 * One function record in the common case.  true: done (recorded, or
 * dropped because this thread is already inside a record, e.g. in a
 * signal handler); false: nothing was touched, take the general path.
 */
FDR_FAST_INLINE bool fdr__fast_fn(uint32_t kind, int32_t fid)
{
	struct fdr_thread *t = &fdr__thread;
	uint64_t tsc;

	if (__builtin_expect(t->busy, 0))
		return true;
	if (__builtin_expect(!fdr__can_write(t, FDR_METADATA_SIZE +
						    FDR_FUNCTION_SIZE), 0))
		return false;
	t->busy = 1;
	__atomic_signal_fence(__ATOMIC_SEQ_CST);
	tsc = fdr__tsc();
	if (__builtin_expect(!fdr__no_preamble(t, tsc, fdr__cpu_fast()), 0))
		goto general;
	if (kind == FDR_FN_ENTER) {
		t->undo_enters++;
		t->last_entry_tsc = tsc;
	} else {
		/* a call shorter than the threshold is rewound: general path */
		if (t->undo_enters && tsc - t->last_entry_tsc < t->threshold)
			goto general;
		t->undo_tails = kind == FDR_FN_TAIL_EXIT && t->undo_enters ?
					t->undo_tails + 1 : 0;
		t->undo_enters = 0;
	}
	fdr__append_fn(t, kind, fid, tsc);
	__atomic_signal_fence(__ATOMIC_SEQ_CST);
	t->busy = 0;
	return true;
general:
	__atomic_signal_fence(__ATOMIC_SEQ_CST);
	t->busy = 0;
	return false;
}

FDR_FAST_INLINE void fdr_fast_enter(int32_t fid)
{
	if (!fdr__fast_fn(FDR_FN_ENTER, fid))
		fdr_enter(fid);
}

FDR_FAST_INLINE void fdr_fast_exit(int32_t fid)
{
	if (!fdr__fast_fn(FDR_FN_EXIT, fid))
		fdr_exit(fid);
}

FDR_FAST_INLINE void fdr_fast_tail_exit(int32_t fid)
{
	if (!fdr__fast_fn(FDR_FN_TAIL_EXIT, fid))
		fdr_tail_exit(fid);
}

#endif /* FDR_FAST_H */
