// SPDX-License-Identifier: MIT
/*
 * cyg_attach.c - fdr_attach_entry()'s -finstrument-functions half
 * (attach_mode.h).  The hooks run on every call anyway; while nothing
 * records they skip the record path (fdr__cyg_idle).  start attaches
 * libfdr to the recorder's region and clears that flag; stop sets it
 * back and detaches.  A program that records already (it found
 * $FDR_TARGET or /dev/fdr at its first call, and records or waits for an
 * INIT there) is not taken over: -EISCONN.
 */
#include <errno.h>
#include <stdbool.h>
#include <string.h>

#include "attach_mode.h"
#include "cyg_resolve.h"
#include "fdr.h"
#include "fdr_detach.h"
#include <linux/fdr.h>

static int was_idle;	/* the flag before start, for stop */

__FDR_NO_INSTRUMENT int fdr__attach_mode_start(const char *target, const char *functions)
{
	int r;

	if (strcmp(functions, "-"))
		return -EINVAL;		/* -F/-N patch XRay sleds: the recorder refuses them */
	if (fdr__attached())
		return -EISCONN;
	r = fdr_attach(target);
	if (r < 0) {
		/* fdr_attach() attached and waits: not for us */
		if (r == -ENODATA)
			fdr_detach();
		return r;
	}
	was_idle = __atomic_load_n(&fdr__cyg_idle, __ATOMIC_RELAXED);
	__atomic_store_n(&fdr__cyg_idle, 0, __ATOMIC_RELAXED);
	return 0;
}

__FDR_NO_INSTRUMENT void fdr__attach_mode_stop(void)
{
	__atomic_store_n(&fdr__cyg_idle, was_idle, __ATOMIC_RELAXED);
	fdr_detach();
}
