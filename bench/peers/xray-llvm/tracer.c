/* SPDX-License-Identifier: MIT */
/*
 * compiler-rt's own XRay FDR mode, set up the way its tests and the format
 * draft ../shared/FORMAT.md §6 do: select "xray-fdr", initialise it
 * with the duration threshold at 0 (every call kept, as for fdr), patch the sleds; at the end finalize,
 * unpatch and flush (after the timed runs; the orchestrator points
 * xray_logfile_base at a temporary directory and reads the header to
 * report which clock the runtime used).  Buffer size and count are the
 * runtime's defaults (16 KiB x 100).
 */
#include <stdio.h>

#include "tracer.h"
#include "xray_log.h"

#define MODE "xray-fdr"

int tracer_setup(void)
{
	int st;

	if (__xray_log_select_mode(MODE) != BENCH_XRAY_REGISTRATION_OK) {
		fprintf(stderr, "xray: mode %s not registered\n", MODE);
		return -1;
	}
	st = __xray_log_init_mode(MODE, "func_duration_threshold_us=0");
	if (st != BENCH_XRAY_LOG_INITIALIZED) {
		fprintf(stderr, "xray: init of %s returned %d\n", MODE, st);
		return -1;
	}
	st = __xray_patch();
	if (st != BENCH_XRAY_PATCH_SUCCESS) {
		fprintf(stderr, "xray: __xray_patch returned %d\n", st);
		return -1;
	}
	return 0;
}

int tracer_teardown(void)
{
	int st;

	st = __xray_log_finalize();
	if (st != BENCH_XRAY_LOG_FINALIZED) {
		fprintf(stderr, "xray: finalize returned %d\n", st);
		return -1;
	}
	__xray_unpatch();
	st = __xray_log_flushLog();
	if (st != BENCH_XRAY_LOG_FLUSHED) {
		fprintf(stderr, "xray: flush returned %d\n", st);
		return -1;
	}
	return 0;
}
