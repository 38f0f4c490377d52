/* SPDX-License-Identifier: MIT */
/*
 * fdr_detach.h - what libfdr offers the attach entry (adapters/attach_entry.c)
 * beyond fdr_attach()/fdr_detach(), so that `fdr record -p` leaves a
 * program as it found it.  Internal: libfdr and the adapters only.
 */
#ifndef FDR_DETACH_H
#define FDR_DETACH_H

#include <stdbool.h>

/* >= 0: the duration threshold of the next fdr_attach(), in µs, instead
 * of $FDR_OPTIONS (a running program's environment is not ours to set). */
extern long fdr__threshold_us_override;

/* While set, fdr_attach() does not say that it waits for an INIT: the
 * attach entry sets it to put back a wait the program had (and said). */
extern bool fdr__attach_quiet;

/* Is the process attached (fdr_attach() done, recording or waiting for
 * an INIT, and no fdr_detach() since)? */
bool fdr__attached(void);

/* After fdr_detach(), with every other thread stopped outside a record
 * and its writer reset: unmap every region ever mapped.  0, or -EBUSY
 * when a stopped thread holds libfdr's lock (nothing done). */
int fdr__unmap_all(void);

/* Does the calling thread hold libfdr's lock (stopped inside it by the
 * recorder, which made it call the attach entry)? */
bool fdr__lock_is_mine(void);

/* After fdr_detach(), while other threads may still be mid-record: make
 * every mapping private zero pages (the region's memory goes back). */
void fdr__retire_all(void);

#endif /* FDR_DETACH_H */
