/* SPDX-License-Identifier: MIT */
/*
 * region_view.h - a writer process's own read-only look at the region,
 * to decide whether a batch of records it just made was published
 * before the finalize (tally.h).
 *
 * The device gives every INIT a new region, which libfdr maps only at its
 * next check (up to 100 ms later); until then records are dropped although
 * the device is INITIALIZED.  So on the device a batch counts only when the
 * thread held a buffer of that generation before and after it ("hold
 * check", a scan of the descriptors).  The embedded region is re-used in
 * place and followed at once, so there state and generation suffice.
 */
#ifndef REL_REGION_VIEW_H
#define REL_REGION_VIEW_H

#include <stdbool.h>
#include <stdint.h>

struct view_snap {
	uint32_t generation;
	bool live;	/* INITIALIZED (and, with the hold check, we hold a
			 * buffer of this generation) */
};

/* A writer process that mapped too many generations exits with this. */
#define VIEW_EXIT_TABLE_FULL	4

/* Once per process, before the threads start. */
int view_open(const char *target, bool hold_check);
/* *hint: the thread's last descriptor index, a cache for the scan. */
void view_snapshot(struct view_snap *s, uint32_t *hint);

#endif
