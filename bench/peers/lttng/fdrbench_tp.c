/* SPDX-License-Identifier: MIT */
/*
 * The provider's probes, linked statically into the traced program (the
 * LTTng-UST manual's "statically linked tracepoint provider" layout).
 */
#define LTTNG_UST_TRACEPOINT_CREATE_PROBES
#define LTTNG_UST_TRACEPOINT_DEFINE
#include "fdrbench_tp.h"
