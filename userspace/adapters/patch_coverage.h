/* SPDX-License-Identifier: MIT */
/*
 * patch_coverage.h - what fdr record -P patched in one process, for fdr
 * record to print: $FDR_SYMDIR/fdr-patch.<pid>.txt, UTF-8 text, lines
 *   exe<TAB><path>
 *   functions<TAB><N>	function symbols of the executable's text
 *   selected<TAB><N>	of those, named by a -P pattern
 *   <reason><TAB><N>	one line per fdr__patch_why_name, "patched" first
 * or "error<TAB><message>" when the symbols could not be read.
 */
#ifndef FDR_PATCH_COVERAGE_H
#define FDR_PATCH_COVERAGE_H

#include <stdbool.h>
#include <stdint.h>

#include "patch_hook.h"

#define FDR_PATCH_COVERAGE_PREFIX	"fdr-patch."

struct fdr_patch_coverage {
	uint32_t functions, selected;
	uint32_t n[FDR_PATCH_NWHY];	/* [FDR_PATCH_OK]: patched */
};

/* ok false: the executable's symbols or capstone were not available. */
void fdr__patch_coverage_write(const struct fdr_patch_coverage *c, bool ok);

#endif /* FDR_PATCH_COVERAGE_H */
