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

/* The common case: same CPU (never so for a buffer's first record: its
 * cpu is FDR_CPU_NONE), a delta that fits.  (An unsigned delta also
 * catches a TSC that went backwards.) */
FDR_FAST_INLINE bool fdr__no_preamble(const struct fdr_thread *t, uint64_t tsc,
				      uint32_t cpu)
{
	return cpu == t->cpu && tsc - t->latest_tsc <= (uint64_t)INT32_MAX;
}

FDR_FAST_INLINE void fdr__append_fn(struct fdr_thread *t, uint32_t kind,
				    int32_t fid, uint64_t tsc)
{
	uint64_t pos = t->pos;	/* local: the store below may alias t */

	fdr__put_function(t->buf + pos, kind, fid,
			  (uint32_t)(tsc - t->latest_tsc));
	pos += FDR_FUNCTION_SIZE;
	t->pos = pos;
	t->latest_tsc = tsc;
	__atomic_store_n(&t->desc->extents, pos, __ATOMIC_RELEASE);
}

/*
 * One function record in the common case.  true: done (recorded, or
 * dropped because this thread is already inside a record, e.g. in a
 * signal handler); false: nothing was touched, take the general path.
 *
 * The TSC is read before the re-entry guard, as compiler-rt's FDR
 * handlers do, so that rdtsc's latency overlaps the checks.  A signal
 * handler that records between the rdtsc and the guard leaves
 * latest_tsc ahead of our TSC; the unsigned delta then does not fit and
 * the general path reads the TSC again.
 */
FDR_FAST_INLINE bool fdr__fast_fn(uint32_t kind, int32_t fid)
{
	struct fdr_thread *t = &fdr__thread;
	uint64_t tsc = fdr__tsc();

	if (__builtin_expect(t->busy, 0))
		return true;
	fdr__guard_enter(t);
	if (__builtin_expect(!fdr__can_write(t, FDR_METADATA_SIZE +
						    FDR_FUNCTION_SIZE) ||
			     !fdr__no_preamble(t, tsc, fdr__cpu_fast()), 0))
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
	fdr__guard_leave(t);
	return true;
general:
	fdr__guard_leave(t);
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
