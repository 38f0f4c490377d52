/* SPDX-License-Identifier: MIT */
/*
 * patch_coverage.h - what fdr record -P patched in one process, for fdr
 * record to print: $FDR_SYMDIR/fdr-patch.<pid>.txt, UTF-8 text, lines
 *   exe<TAB><path>
 *   functions<TAB><N>	function symbols of the executable's text
 *   symbols<TAB><.symtab or .dynsym>	where they came from (none: no table)
 *   dwarf<TAB><N><TAB><file>	N more from the DWARF of file (patch_funcs.h)
 *   selected<TAB><N>	of those, named by a -P pattern
 *   <reason><TAB><N>	one line per fdr__patch_why_name, "patched" first
 *   refused<TAB><reason><TAB><name>   each function patch_one refused, in
 *                      symbol order (control bytes of the name as '?')
 * or "error<TAB><message>" when the symbols could not be read.
 */
#ifndef FDR_PATCH_COVERAGE_H
#define FDR_PATCH_COVERAGE_H

#include <stdbool.h>
#include <stdint.h>

#include "patch_hook.h"

#define FDR_PATCH_COVERAGE_PREFIX	"fdr-patch."

struct fdr_patch_refusal {
	const char *name;		/* the symbol table's, mapped for good */
	enum fdr_patch_why why;
};

struct fdr_patch_coverage {
	uint32_t functions, selected;
	uint32_t n[FDR_PATCH_NWHY];	/* [FDR_PATCH_OK]: patched */
	struct fdr_patch_refusal *refused;	/* itemised, malloc'ed */
	uint32_t nrefused, cap;
	const char *table;		/* patch_funcs.h's, or NULL */
	const char *debug;
	uint32_t ndwarf;
};

/* Count one selected function's outcome; a refusal is itemised too (as
 * far as memory allows: the counts stay exact). */
void fdr__patch_coverage_count(struct fdr_patch_coverage *c, const char *name,
			       enum fdr_patch_why why);

/* ok false: the object's symbols or capstone were not available.
 * Frees the itemised refusals. */
void fdr__patch_coverage_write(struct fdr_patch_coverage *c, bool ok,
			       const struct fdr_patch_target *t);

#endif /* FDR_PATCH_COVERAGE_H */
