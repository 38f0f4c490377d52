/* SPDX-License-Identifier: MIT */
/*
 * attach_mode.h - the half of fdr_attach_entry() (attach_entry.c) that
 * depends on how the program is instrumented: XRay sleds (xray_attach.c)
 * or the -finstrument-functions hooks (cyg_attach.c).  Each archive
 * links exactly one of them.
 */
#ifndef FDR_ATTACH_MODE_H
#define FDR_ATTACH_MODE_H

#include <stdbool.h>

/*
 * Attach libfdr to target (the threshold is already set) and make the
 * instrumentation record: functions is "-" for all, else
 * $FDR_XRAY_FUNCTIONS' syntax.  Returns how many functions now record
 * (0: not known in advance), or -errno with nothing left started.
 */
int fdr__attach_mode_start(const char *target, const char *functions);

/* No call starts a record from now on (one already inside may finish);
 * then libfdr is detached (fdr_detach()). */
void fdr__attach_mode_stop(void);

/*
 * With every other thread stopped by the recorder: finish what could not
 * be done while they ran (fdr-cc --patchable: the nop sites across two
 * 8-byte words, pfe_hook.h); recording: after a start, else at the
 * unmap after a stop.  How many more functions record.  Weak: only the
 * --patchable mode has it.
 */
int fdr__attach_mode_stopped(bool recording) __attribute__((weak));

#endif /* FDR_ATTACH_MODE_H */
