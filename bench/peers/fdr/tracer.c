/* SPDX-License-Identifier: MIT */
/*
 * fdr through its direct C API: a private embedded region, then
 * fdr_attach().  The duration threshold comes from $FDR_OPTIONS, which
 * the orchestrator sets to func_duration_threshold_us=0 so that every
 * call is kept, as for every other tracer here.
 */
#include <stdio.h>
#include <unistd.h>

#include <fdr.h>

#include "region.h"
#include "tracer.h"

static char target[64];

int tracer_setup(void)
{
	int err;

	snprintf(target, sizeof(target), FDR_EMBEDDED_PREFIX "bench-direct-%d",
		 (int)getpid());
	if (bench_region_create(target))
		return -1;
	err = fdr_attach(target);
	if (err) {
		fprintf(stderr, "fdr_attach(%s) failed: %d\n", target, err);
		return -1;
	}
	return 0;
}

int tracer_teardown(void)
{
	fdr_detach();
	return bench_region_destroy(target);
}
