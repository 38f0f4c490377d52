/* SPDX-License-Identifier: MIT */
/*
 * fdr's "fdr" XRay mode, used the way a user would: no source change;
 * the adapter's constructor registers, selects and initialises the mode
 * from XRAY_OPTIONS="patch_premain=true xray_mode=fdr", recording into
 * $FDR_TARGET (a region bench-region created) with $FDR_OPTIONS.  Here we
 * only check that it did, and finalize after the timed runs (the mode's
 * log_finalize finalizes the region; fdrd would flush it).
 */
#include <stdio.h>
#include <string.h>

#include "xray_log.h"
#include "tracer.h"

#define MODE "fdr"

const char *__xray_log_get_current_mode(void);

int tracer_setup(void)
{
	const char *mode = __xray_log_get_current_mode();

	if (!mode || strcmp(mode, MODE)) {
		fprintf(stderr, "xray: current mode is '%s', not '%s' "
			"(XRAY_OPTIONS=\"patch_premain=true xray_mode=fdr\"?)\n",
			mode ? mode : "(none)", MODE);
		return -1;
	}
	return 0;
}

int tracer_teardown(void)
{
	int st = __xray_log_finalize();

	if (st != BENCH_XRAY_LOG_FINALIZED) {
		fprintf(stderr, "xray: finalize of %s returned %d\n", MODE, st);
		return -1;
	}
	__xray_unpatch();
	return 0;
}
