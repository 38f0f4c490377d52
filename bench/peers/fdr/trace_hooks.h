/* SPDX-License-Identifier: MIT */
/* trace_hooks.h for fdr's direct C API: one record at entry, one at exit. */
#ifndef BENCH_TRACE_HOOKS_H
#define BENCH_TRACE_HOOKS_H

#include <fdr.h>

#define TRACE_ENTER(fid) fdr_enter(fid)
#define TRACE_EXIT(fid) fdr_exit(fid)

#endif
