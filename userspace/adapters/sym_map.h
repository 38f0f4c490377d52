/* SPDX-License-Identifier: MIT */
/*
 * sym_map.h - the id -> function table of a -finstrument-functions
 * process, written where the reader finds it even after a crash.
 *
 * File: $FDR_SYMDIR/fdr-syms.<pid>.map ($FDR_SYMDIR defaults to /tmp).
 * UTF-8 text; lines starting with '#' are comments; one line per function:
 *   <fid>\t<symbol or ?>\t<module path>\t<hex link-time address, 0x...>
 * A line is appended with one O_APPEND write(2) the first time the
 * process calls the function, so everything that reached the ring buffer
 * is named on disk at the moment it happens: nothing is lost in a crash.
 * The file begins "# fdr sym-map 1: ...", "# pid <pid> start <ticks>";
 * after an exec() the new image appends, after a "# exec <path>" line.
 */
#ifndef FDR_SYM_MAP_H
#define FDR_SYM_MAP_H

#include <stdint.h>

#define FDR_SYMDIR_ENV		"FDR_SYMDIR"
#define FDR_SYMDIR_DEFAULT	"/tmp"

/* Append one function (opens the file on first use). */
void fdr__sym_map_append(uint32_t fid, const char *symbol, const char *module,
			uint64_t vaddr);

/* In a fork child: forget the parent's file; the next append opens
 * this process's own. */
void fdr__sym_map_forget(void);

#endif /* FDR_SYM_MAP_H */
