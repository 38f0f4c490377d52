/* SPDX-License-Identifier: MIT */
/*
 * fdrbench_tp.h - the LTTng-UST tracepoint provider: function entry and
 * exit, each carrying the same 32-bit function id fdr records.
 * (Read several times by lttng/tracepoint-event.h, hence the guards.)
 */
#undef LTTNG_UST_TRACEPOINT_PROVIDER
#define LTTNG_UST_TRACEPOINT_PROVIDER fdrbench

#undef LTTNG_UST_TRACEPOINT_INCLUDE
#define LTTNG_UST_TRACEPOINT_INCLUDE "./fdrbench_tp.h"

#if !defined(BENCH_FDRBENCH_TP_H) || defined(LTTNG_UST_TRACEPOINT_HEADER_MULTI_READ)
#define BENCH_FDRBENCH_TP_H

#include <stdint.h>
#include <lttng/tracepoint.h>

LTTNG_UST_TRACEPOINT_EVENT(fdrbench, func_entry,
	LTTNG_UST_TP_ARGS(int32_t, fid),
	LTTNG_UST_TP_FIELDS(lttng_ust_field_integer(int32_t, fid, fid)))

LTTNG_UST_TRACEPOINT_EVENT(fdrbench, func_exit,
	LTTNG_UST_TP_ARGS(int32_t, fid),
	LTTNG_UST_TP_FIELDS(lttng_ust_field_integer(int32_t, fid, fid)))

#endif

#include <lttng/tracepoint-event.h>
