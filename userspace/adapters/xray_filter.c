// SPDX-License-Identifier: MIT
/*
 * xray_filter.c - $FDR_XRAY_FUNCTIONS (xray_filter.h).  Runs once, from
 * the autostart, before the sleds are pointed at our trampolines, which
 * leave unpatched sleds alone.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <linux/fdr.h>
#include "xray_abi.h"
#include "xray_filter.h"

/* Patch (or unpatch) every id of the comma-separated list. */
__FDR_NO_INSTRUMENT static int each_id(const char *list, int patch)
{
	size_t max = __xray_max_function_id();
	char *end;

	while (*list) {
		unsigned long id = strtoul(list, &end, 10);
		enum fdr_xray_patching_status st;

		if (end == list || (*end && *end != ',') || id == 0 || id > max) {
			fprintf(stderr, "fdr xray mode: FDR_XRAY_FUNCTIONS: bad function "
				"id at '%s' (ids are 1 to %zu)\n", list, max);
			return -EINVAL;
		}
		st = patch ? __xray_patch_function((int32_t)id)
			   : __xray_unpatch_function((int32_t)id);
		if (st != FDR_XRAY_PATCH_SUCCESS)
			return -EIO;
		list = *end ? end + 1 : end;
	}
	return 0;
}

__FDR_NO_INSTRUMENT int fdr__xray_filter_apply(const char *spec)
{
	if (!spec || !*spec)
		return 0;
	if (!strncmp(spec, "only:", 5)) {
		if (__xray_unpatch() != FDR_XRAY_PATCH_SUCCESS)
			return -EIO;
		return each_id(spec + 5, 1);
	}
	if (!strncmp(spec, "skip:", 5))
		return each_id(spec + 5, 0);
	fprintf(stderr, "fdr xray mode: FDR_XRAY_FUNCTIONS='%s': expected only:IDS "
		"or skip:IDS\n", spec);
	return -EINVAL;
}
