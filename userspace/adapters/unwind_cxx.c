// SPDX-License-Identifier: MIT
/*
 * unwind_cxx.c - the frames one C++ throw leaves, closed at its catch
 * (see unwind_cxx.h).
 *
 * One list per thread, of the last throw.  A catch closes it only when
 * it catches that throw's object (or a rethrow's): a throw caught where
 * no hook sees it (inside libstdc++.so) must not have its frames closed
 * at some later, unrelated catch.
 *
 * The frames are closed as the unwinder leaves them, not all at the
 * catch: the cleanups of a frame (its destructors) run during the
 * unwind, in that frame, and must show there, after the frames below it
 * were left.  The unwinder's second phase calls a frame's personality
 * routine before it runs the frame's landing pad (cleanup or handler),
 * with the frame's registers: every frame deeper than that frame's stack
 * pointer has been left by then.  Frames with nothing to clean up have
 * no personality call; they run no code during the unwind and are
 * closed at the next frame's call or at the catch.  fdr-c++ links with
 * --wrap=__gxx_personality_v0: the instrumented frames are the
 * program's own, whose unwind tables name the personality through the
 * link.
 */
#include <stddef.h>
#include <unwind.h>

#include <linux/fdr.h>
#include "plt_hook.h"
#include "unwind_cxx.h"
#include "unwind_frames.h"

struct pending_throw {
	void *obj;		/* the thrown object; NULL: a rethrow */
	struct fdr_unwind_frames frames;
};

static __thread struct pending_throw pending;

void *__real___cxa_begin_catch(void *unwind_exception);
_Unwind_Reason_Code __real___gxx_personality_v0(int version, _Unwind_Action actions,
						_Unwind_Exception_Class cls,
						struct _Unwind_Exception *ue,
						struct _Unwind_Context *ctx);

__FDR_NO_INSTRUMENT void fdr__unwind_cxx_throwing(void *obj)
{
	pending.obj = obj;
	fdr__unwind_capture(&pending.frames);
}

/* The landing pad calls this in the catching frame: our CFA is that
 * frame's stack pointer, and the unwound frames were all below it. */
__FDR_NO_INSTRUMENT void *__wrap___cxa_begin_catch(void *unwind_exception)
{
	/* our own return slot: the catcher's library calls below it are
	 * over, the others get their hooks back (plt_shadow.c) */
	uintptr_t slot = (uintptr_t)__builtin_frame_address(0) + sizeof(void *);
	void *obj = __real___cxa_begin_catch(unwind_exception);

	if (pending.frames.n && (!pending.obj || pending.obj == obj))
		fdr__unwind_close_below(&pending.frames,
				       (uint64_t)(uintptr_t)__builtin_dwarf_cfa());
	pending.frames.n = 0;
	fdr__plt_rehook_returns(slot);	/* after: a library call is older */
	return obj;
}

__FDR_NO_INSTRUMENT _Unwind_Reason_Code
__wrap___gxx_personality_v0(int version, _Unwind_Action actions,
			    _Unwind_Exception_Class cls, struct _Unwind_Exception *ue,
			    struct _Unwind_Context *ctx)
{
	/* The context's CFA is still its callee's (the unwinder moves it on
	 * after this call): this frame's stack pointer at its call. */
	if ((actions & _UA_CLEANUP_PHASE) && pending.frames.n)
		fdr__unwind_close_upto(&pending.frames, (uint64_t)_Unwind_GetCFA(ctx));
	return __real___gxx_personality_v0(version, actions, cls, ue, ctx);
}
