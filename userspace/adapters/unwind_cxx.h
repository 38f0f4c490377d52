/* SPDX-License-Identifier: MIT */
/*
 * unwind_cxx.h - close the frames a C++ exception unwinds, in the XRay
 * mode (GCC's -finstrument-functions calls the exit hook on unwind by
 * itself).
 *
 * At a throw the thread's instrumented frames are kept (unwind_frames.h);
 * each is closed when the unwinder leaves it (at the next frame's
 * personality call, so that a frame's destructors show inside it), the
 * rest below the catching frame at the catch.  The throw is
 * seen where the program or libstdc++ calls __cxa_throw/__cxa_rethrow:
 * through --wrap in a static link (unwind_cxx_static.c), by interposing
 * the two in a dynamic one (unwind_cxx_shared.c, libfdr-xray-cxx.a),
 * since libstdc++.so's own throws (std::vector::at ...) go through its
 * PLT.  The catch is __cxa_begin_catch, wrapped in both.
 */
#ifndef FDR_UNWIND_CXX_H
#define FDR_UNWIND_CXX_H

/* About to throw obj (NULL: rethrow the exception being handled). */
void fdr__unwind_cxx_throwing(void *obj);

#endif /* FDR_UNWIND_CXX_H */
