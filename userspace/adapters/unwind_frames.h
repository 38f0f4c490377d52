/* SPDX-License-Identifier: MIT */
/*
 * unwind_frames.h - close, in the log, the frames that a C++ exception
 * or a longjmp() leaves without their exit.
 *
 * XRay has no exit sled on unwind and longjmp() skips every
 * -finstrument-functions exit hook, so such frames would stay open in
 * the log for ever: the reader's stacks and llvm-xray's accounting break
 * at the next exit.  The hooks (unwind_longjmp.c, unwind_cxx.c) find the
 * instrumented frames about to be skipped with the unwinder, which knows
 * the start of each frame's function and the frame's CFA, and record an
 * Exit for each, innermost first, with the TSC of the moment the
 * program reaches its landing point.
 *
 * Nothing here runs on the record path: only on a throw, a catch or a
 * longjmp().  Documentation/integrations.md lists what is covered.
 */
#ifndef FDR_UNWIND_FRAMES_H
#define FDR_UNWIND_FRAMES_H

#include <stdint.h>

/* Instrumented frames one throw keeps, innermost first: deeper ones are
 * not closed (documented limit). */
#define FDR_UNWIND_MAX	256

struct fdr_unwind_frames {
	uint32_t n;
	int32_t fid[FDR_UNWIND_MAX];
	uint64_t cfa[FDR_UNWIND_MAX];
};

/*
 * The id the running mode gave the instrumented function that starts at
 * start (a run-time address), or 0 when it is not instrumented or has
 * never been entered.  Each mode's archive defines it: the XRay mode
 * from XRay's function table (xray_fid_table.c), the GCC hooks from
 * their address cache (cyg_unwind.c).  Safe in a signal handler.
 */
uint32_t fdr__unwind_fid_at(uintptr_t start);

/* Fill f with the calling thread's instrumented frames, innermost first. */
void fdr__unwind_capture(struct fdr_unwind_frames *f);

/* Record an Exit for each frame of f whose CFA is at most limit (the
 * frames below the landing frame), innermost first; then empty f. */
void fdr__unwind_close_below(struct fdr_unwind_frames *f, uint64_t limit);

/* Record an Exit for each frame of f whose CFA is at most limit (the
 * frames called, directly or not, by the frame whose stack pointer at
 * its call is limit: those the unwinder has left when it reaches that
 * frame), innermost first, and drop them from f. */
void fdr__unwind_close_upto(struct fdr_unwind_frames *f, uint64_t limit);

/* Walk the calling thread's stack and record an Exit for each
 * instrumented frame whose CFA is at most limit, innermost first,
 * stopping at the first frame above it.  Needs no buffer. */
void fdr__unwind_close_stack_below(uint64_t limit);

#endif /* FDR_UNWIND_FRAMES_H */
