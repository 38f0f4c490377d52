/* SPDX-License-Identifier: MIT */
/*
 * trace_hooks.h for libfdr's inline fast path (userspace/lib/fdr_fast.h),
 * the one the XRay and -finstrument-functions adapters use: the common
 * case of fdr_enter/fdr_exit inlined into the traced function.  Internal
 * to this source tree, so shown beside the public direct API, not instead
 * of it.  Set-up is the direct API's (peers/fdr/tracer.c).
 */
#ifndef BENCH_TRACE_HOOKS_H
#define BENCH_TRACE_HOOKS_H

#include <fdr.h>
#include "fdr_fast.h"

#define TRACE_ENTER(fid) fdr_fast_enter(fid)
#define TRACE_EXIT(fid) fdr_fast_exit(fid)

#endif
