/* SPDX-License-Identifier: MIT */
/*
 * bench-region - create or remove the embedded region an XRay-instrumented
 * candidate records into.  The "fdr" XRay mode attaches from a
 * constructor, before main(), so its region must exist before the program
 * starts, as with `fdrctl init --embedded NAME` in normal use.
 *
 *   bench-region create embedded:NAME
 *   bench-region destroy embedded:NAME
 */
#include <stdio.h>
#include <string.h>

#include "region.h"

int main(int argc, char **argv)
{
	if (argc == 3 && !strcmp(argv[1], "create"))
		return bench_region_create(argv[2]) ? 1 : 0;
	if (argc == 3 && !strcmp(argv[1], "destroy"))
		return bench_region_destroy(argv[2]) ? 1 : 0;
	fprintf(stderr, "usage: %s create|destroy embedded:NAME\n", argv[0]);
	return 2;
}
