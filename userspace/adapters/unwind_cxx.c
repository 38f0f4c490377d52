// SPDX-License-Identifier: MIT
/*
 * unwind_cxx.c - the frames one C++ throw leaves, closed at its catch
 * (see unwind_cxx.h).
 *
 * One list per thread, of the last throw.  A catch closes it only when
 * it catches that throw's object (or a rethrow's): a throw caught where
 * no hook sees it (inside libstdc++.so) must not have its frames closed
 * at some later, unrelated catch.
 */
#include <stddef.h>

#include <linux/fdr.h>
#include "unwind_cxx.h"
#include "unwind_frames.h"

struct pending_throw {
	void *obj;		/* the thrown object; NULL: a rethrow */
	struct fdr_unwind_frames frames;
};

static __thread struct pending_throw pending;

void *__real___cxa_begin_catch(void *unwind_exception);

__FDR_NO_INSTRUMENT void fdr__unwind_cxx_throwing(void *obj)
{
	pending.obj = obj;
	fdr__unwind_capture(&pending.frames);
}

/* The landing pad calls this in the catching frame: our CFA is that
 * frame's stack pointer, and the unwound frames were all below it. */
__FDR_NO_INSTRUMENT void *__wrap___cxa_begin_catch(void *unwind_exception)
{
	void *obj = __real___cxa_begin_catch(unwind_exception);

	if (pending.frames.n && (!pending.obj || pending.obj == obj))
		fdr__unwind_close_below(&pending.frames,
				       (uint64_t)(uintptr_t)__builtin_dwarf_cfa());
	pending.frames.n = 0;
	return obj;
}
