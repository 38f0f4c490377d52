// SPDX-License-Identifier: MIT
/*
 * xray_fdr_start.c - linked into bench/app's compiler-rt build: starts
 * compiler-rt's XRay FDR mode before main and writes its log at exit,
 * as compiler-rt's FDR mode needs code in the program for both (its
 * XRAY_OPTIONS alone do not flush an FDR log).
 *
 * $BENCH_XRAY_FDR_OPTIONS is the mode's config string (buffer_size,
 * buffer_max, func_duration_threshold_us); unset, nothing is started
 * and the build runs as uninstrumented code with unpatched sleds.
 */
#include <stdio.h>
#include <stdlib.h>
#include "xray_log.h"	/* bench/peers: compiler-rt's calls, declared for C */

__attribute__((xray_never_instrument)) static void stop(void)
{
	__xray_log_finalize();
	__xray_unpatch();
	if (__xray_log_flushLog() != BENCH_XRAY_LOG_FLUSHED)
		fprintf(stderr, "xray_fdr_start: the FDR log was not flushed\n");
}

__attribute__((constructor, xray_never_instrument)) static void start(void)
{
	const char *cfg = getenv("BENCH_XRAY_FDR_OPTIONS");

	if (!cfg)
		return;
	if (__xray_log_select_mode("xray-fdr") != BENCH_XRAY_REGISTRATION_OK ||
	    __xray_log_init_mode("xray-fdr", cfg) != BENCH_XRAY_LOG_INITIALIZED) {
		fprintf(stderr, "xray_fdr_start: cannot start xray-fdr with '%s'\n", cfg);
		exit(125);
	}
	__xray_patch();
	atexit(stop);
}
