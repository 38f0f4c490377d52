// SPDX-License-Identifier: MIT
/*
 * cyg_attach.c - fdr_attach_entry()'s -finstrument-functions half
 * (attach_mode.h).  The hooks run on every call anyway; while nothing
 * records they skip the record path (fdr__cyg_idle).  start attaches
 * libfdr to the recorder's region and clears that flag; stop sets it
 * back and detaches.  A program that found $FDR_TARGET or /dev/fdr at
 * its first call and waits there for an INIT (where fdr.ko is loaded,
 * every --gcc program does) is detached from it at start and attached to
 * it again at stop; one that records there is not taken over: -EISCONN.
 */
#include <errno.h>
#include <stdbool.h>
#include <string.h>

#include "attach_mode.h"
#include "cyg_resolve.h"
#include "fdr.h"
#include "fdr_detach.h"
#include "fdr_inline.h"
#include <linux/fdr.h>

static int was_idle;	/* the flag before start, for stop */
static bool was_waiting;	/* attached to its own target, no INIT yet */

/* Recording into a region of its own ($FDR_TARGET, /dev/fdr)? */
__FDR_NO_INSTRUMENT static bool records_elsewhere(void)
{
	return __atomic_load_n(&fdr__current, __ATOMIC_ACQUIRE) != NULL;
}

/* Attach to the program's own target again (what it waited on). */
__FDR_NO_INSTRUMENT static void put_back_wait(void)
{
	if (!was_waiting)
		return;
	fdr__attach_quiet = true;
	fdr_attach(NULL);
	fdr__attach_quiet = false;
	was_waiting = false;
}

__FDR_NO_INSTRUMENT int fdr__attach_mode_start(const char *target, const char *functions)
{
	int r;

	if (strcmp(functions, "-"))
		return -EINVAL;		/* -F/-N patch XRay sleds: the recorder refuses them */
	was_waiting = fdr__attached();
	if (was_waiting && records_elsewhere())
		return -EISCONN;
	if (was_waiting)
		fdr_detach();
	r = fdr_attach(target);
	if (r < 0) {
		/* fdr_attach() attached and waits: not for us */
		if (r == -ENODATA)
			fdr_detach();
		put_back_wait();
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
	put_back_wait();
}
