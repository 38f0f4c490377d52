/* SPDX-License-Identifier: MIT */
/*
 * cyg_resolve.h - the slow path of the -finstrument-functions hooks:
 * first sight of a function address.
 */
#ifndef FDR_CYG_RESOLVE_H
#define FDR_CYG_RESOLVE_H

#include <stdint.h>

/*
 * Give fn its stable id, name it in the sym-map, cache it; attaches the
 * process on the first call.  Returns 0 when the call must not be
 * recorded (re-entered from a signal handler inside the slow path, or
 * the tables are full).
 */
uint32_t fdr__cyg_resolve(uintptr_t fn);

/* Set once the tables are full: new functions are then not recorded,
 * and the hooks stop taking the slow path for them. */
extern volatile int fdr__cyg_tables_full;

/*
 * Nonzero while nothing records: the first hook call found nothing to
 * attach to ($FDR_TARGET, /dev/fdr), and no `fdr record -p` is attached
 * (cyg_attach.c).  The hooks then skip the record path: one predictable
 * branch.  Read and written with relaxed atomics; a call that saw 0
 * just before it became 1 finds the region gone, as any late writer.
 */
extern int fdr__cyg_idle;

#endif /* FDR_CYG_RESOLVE_H */
