/* SPDX-License-Identifier: MIT */
/*
 * xray_exec_id.h - the object id of an XRay executable that PROG
 * exec()ed (prog_image.h), so that its functions do not take the ids of
 * PROG's own.
 *
 * XRay numbers an executable's functions 1, 2, ... (object 0); every
 * fdr-cc program does, so a program PROG runs would take PROG's numbers.
 * Such an executable is numbered as a shared library is (xray_dso.h):
 * (object << 24) | n, its object id taken from 15 downwards (libraries
 * take theirs from 1 upwards) and shared by the whole recording, so that
 * two processes running two programs never give one id to both.  The id
 * is claimed with link(2) of $FDR_SYMDIR/fdr-xray-exe.<id>, a file that
 * holds the executable's path: the first to link it owns it, a process
 * running the same program finds its path there and takes the same id.
 * The id and the path also go to this process's fdr-xray-dso map, from
 * which fdr record names the functions.
 */
#ifndef FDR_XRAY_EXEC_ID_H
#define FDR_XRAY_EXEC_ID_H

#include <stdint.h>

#define FDR_XRAY_EXE_CLAIM	"fdr-xray-exe"

/* What the executable's ids are or-ed with: 0 for PROG (object 0). */
extern int32_t fdr__xray_main_base;

/* Decide fdr__xray_main_base, once, before the sleds are retargeted.
 * 0, or -1 when no id is free (said on stderr: the ids stay PROG's). */
int fdr__xray_main_claim(void);

#endif /* FDR_XRAY_EXEC_ID_H */
