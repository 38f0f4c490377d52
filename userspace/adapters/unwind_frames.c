// SPDX-License-Identifier: MIT
/*
 * unwind_frames.c - the frames a throw or a longjmp() skips, from the
 * unwinder (see unwind_frames.h).
 *
 * _Unwind_Backtrace starts at its caller and gives, per frame, the start
 * of the frame's function (the FDE's, which is the function's symbol: the
 * address XRay and the GCC hooks know it by) and a CFA which, at the time
 * of the callback, is the CFA of the frame below (its callee): the
 * frame's own stack pointer at its call.  A frame's own CFA (the stack
 * pointer before the call into it) is therefore read one callback later,
 * from its caller's.  The stack grows down: a frame called, directly or
 * not, by the landing frame has its CFA at or below the landing frame's
 * stack pointer, and every frame still live is above it.
 */
#include <string.h>
#include <unwind.h>

#include "fdr.h"
#include "fdr_inline.h"
#include <linux/fdr.h>
#include "plt_hook.h"
#include "unwind_frames.h"

__FDR_NO_INSTRUMENT static uint32_t frame_fid(struct _Unwind_Context *ctx)
{
	uintptr_t start = (uintptr_t)_Unwind_GetRegionStart(ctx);

	return start ? fdr__unwind_fid_at(start) : 0;
}

/* One frame seen, the caller's (where its own CFA comes from) not yet. */
struct walk {
	uint32_t pending_fid;		/* 0: not instrumented */
	uint64_t limit;			/* close_frame only */
	struct fdr_unwind_frames *frames;	/* keep_frame only */
};

/* The CFA of the frame before this callback's, then make this one pending. */
__FDR_NO_INSTRUMENT static uint64_t step(struct walk *w, struct _Unwind_Context *ctx,
			      uint32_t *fid)
{
	*fid = w->pending_fid;
	w->pending_fid = frame_fid(ctx);
	return (uint64_t)_Unwind_GetCFA(ctx);
}

__FDR_NO_INSTRUMENT static _Unwind_Reason_Code keep_frame(struct _Unwind_Context *ctx,
					       void *arg)
{
	struct walk *w = arg;
	struct fdr_unwind_frames *f = w->frames;
	uint32_t fid;
	uint64_t cfa = step(w, ctx, &fid);

	if (fid == 0)
		return _URC_NO_REASON;
	if (f->n == FDR_UNWIND_MAX)
		return _URC_END_OF_STACK;
	f->fid[f->n] = (int32_t)fid;
	f->cfa[f->n] = cfa;
	f->n++;
	return _URC_NO_REASON;
}

/* Not recording (no region attached, e.g. run without fdr record): no
 * walk, so that such a run pays nothing for a throw or a longjmp(). */
__FDR_NO_INSTRUMENT static bool recording(void)
{
	return __atomic_load_n(&fdr__current, __ATOMIC_RELAXED) != NULL;
}

__FDR_NO_INSTRUMENT void fdr__unwind_capture(struct fdr_unwind_frames *f)
{
	struct walk w = { .frames = f };

	f->n = 0;
	if (recording())
		_Unwind_Backtrace(keep_frame, &w);
}

__FDR_NO_INSTRUMENT void fdr__unwind_close_upto(struct fdr_unwind_frames *f,
				    uint64_t limit)
{
	uint32_t i = 0;

	while (i < f->n && f->cfa[i] <= limit) {
		fdr__plt_close_below(f->cfa[i]);	/* its library calls first */
		fdr_exit(f->fid[i++]);
	}
	if (i == 0)
		return;
	f->n -= i;
	memmove(f->fid, f->fid + i, f->n * sizeof(f->fid[0]));
	memmove(f->cfa, f->cfa + i, f->n * sizeof(f->cfa[0]));
}

__FDR_NO_INSTRUMENT void fdr__unwind_close_below(struct fdr_unwind_frames *f,
				     uint64_t limit)
{
	fdr__unwind_close_upto(f, limit);
	f->n = 0;
}

__FDR_NO_INSTRUMENT static _Unwind_Reason_Code close_frame(struct _Unwind_Context *ctx,
						void *arg)
{
	struct walk *w = arg;
	uint32_t fid;
	uint64_t cfa = step(w, ctx, &fid);

	if (cfa > w->limit)
		return _URC_END_OF_STACK;
	if (fid) {
		fdr__plt_close_below(cfa);	/* its library calls first */
		fdr_exit((int32_t)fid);
	}
	return _URC_NO_REASON;
}

__FDR_NO_INSTRUMENT void fdr__unwind_close_stack_below(uint64_t limit)
{
	struct walk w = { .limit = limit };

	if (recording())
		_Unwind_Backtrace(close_frame, &w);
}
