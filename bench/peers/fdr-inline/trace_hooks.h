/* SPDX-License-Identifier: MIT */
/*
 * trace_hooks.h for the direct API's inline calls (<fdr_inline.h>, also
 * what the XRay and -finstrument-functions adapters use): the common case
 * of fdr_enter/fdr_exit inlined into the traced function.  Set-up is the
 * direct API's (peers/fdr/tracer.c).
 */
#ifndef BENCH_TRACE_HOOKS_H
#define BENCH_TRACE_HOOKS_H

#include <fdr.h>
#include <fdr_inline.h>

#define TRACE_ENTER(fid) fdr_inline_enter(fid)
#define TRACE_EXIT(fid) fdr_inline_exit(fid)

#endif
