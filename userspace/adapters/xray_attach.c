// SPDX-License-Identifier: MIT
/*
 * xray_attach.c - fdr_attach_entry()'s XRay half (attach_mode.h): start
 * selects and initializes the "fdr" mode on the recorder's region and
 * patches the sleds; stop unpatches them, finalizes and detaches, so
 * that the program runs its unpatched sleds again.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "attach_mode.h"
#include "fdr.h"
#include <linux/fdr.h>
#include "xray_abi.h"
#include "xray_config.h"
#include "xray_filter.h"
#include "xray_mode.h"
#include "xray_sleds.h"

/* compiler-rt's (xray_interface.h); not in xray_abi.h, whose users
 * (tests/xray_explicit.c) declare it their own way */
enum fdr_xray_patching_status __xray_patch(void);

/* How many functions FUNCTIONS leaves patched. */
__FDR_NO_INSTRUMENT static int patched_count(const char *functions)
{
	int max = (int)__xray_max_function_id(), ids = 1;

	if (!strcmp(functions, "-"))
		return max;
	for (const char *p = functions; *p; p++)
		ids += *p == ',';
	return strncmp(functions, "only:", 5) ? max - ids : ids;
}

/* Patch; how many functions are, or -errno. */
__FDR_NO_INSTRUMENT static int patch(const char *functions)
{
	if (__xray_patch() != FDR_XRAY_PATCH_SUCCESS)
		return -EIO;
	if (strcmp(functions, "-") && fdr__xray_filter_apply(functions))
		return -EINVAL;
	/* < 0: compiler-rt's slower trampolines still record */
	fdr__xray_sleds_retarget();
	return patched_count(functions);
}

__FDR_NO_INSTRUMENT int fdr__attach_mode_start(const char *target, const char *functions)
{
	char cfg[FDR_XRAY_TARGET_MAX + 16];
	int r;

	snprintf(cfg, sizeof(cfg), "target='%s'", target);
	if (__xray_log_select_mode(FDR_XRAY_MODE_NAME) != FDR_XRAY_REGISTRATION_OK ||
	    __xray_log_init_mode(FDR_XRAY_MODE_NAME, cfg) != FDR_XRAY_LOG_INITIALIZED)
		return -ENOTCONN;
	r = patch(functions);
	if (r < 0)
		fdr__attach_mode_stop();
	return r;
}

__FDR_NO_INSTRUMENT void fdr__attach_mode_stop(void)
{
	__xray_unpatch();		/* no new call reaches us */
	__xray_log_finalize();		/* the mode's handlers off, region finalized */
	fdr_detach();
	fdr__xray_mode_forget();
}
