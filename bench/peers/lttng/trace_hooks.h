/* SPDX-License-Identifier: MIT */
/* trace_hooks.h for LTTng-UST: a tracepoint at entry and one at exit. */
#ifndef BENCH_TRACE_HOOKS_H
#define BENCH_TRACE_HOOKS_H

#include "fdrbench_tp.h"

#define TRACE_ENTER(fid) lttng_ust_tracepoint(fdrbench, func_entry, (fid))
#define TRACE_EXIT(fid) lttng_ust_tracepoint(fdrbench, func_exit, (fid))

#endif
