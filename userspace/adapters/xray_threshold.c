// SPDX-License-Identifier: MIT
/*
 * xray_threshold.c - the config string wins over $FDR_OPTIONS, as in
 * XRay where the string given to __xray_log_init_mode is applied last.
 *
 * libfdr takes its options only from $FDR_OPTIONS at fdr_attach(), so the
 * threshold is appended there (libfdr applies keys in order, so the last
 * one wins).
 * This runs in log_init, before any handler is installed.
 */
#include <stdio.h>
#include <stdlib.h>

#include <linux/fdr.h>
#include "xray_threshold.h"

__FDR_NO_INSTRUMENT int fdr__xray_set_threshold(unsigned long threshold_us)
{
	const char *old = getenv("FDR_OPTIONS");
	char opts[512];
	int n;

	n = snprintf(opts, sizeof(opts), "%s%sfunc_duration_threshold_us=%lu",
		     old ? old : "", old && *old ? " " : "", threshold_us);
	if (n < 0 || (size_t)n >= sizeof(opts) ||
	    setenv("FDR_OPTIONS", opts, 1)) {
		fprintf(stderr, "fdr xray mode: cannot pass func_duration_threshold_us "
			"to libfdr: $FDR_OPTIONS is too long\n");
		return -1;
	}
	return 0;
}
