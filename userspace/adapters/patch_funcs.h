/* SPDX-License-Identifier: MIT */
/*
 * patch_funcs.h - the function entries fdr record -P patches in one
 * object (patch_main.c): its symbol table's (.symtab, else .dynsym), and
 * when the file has no .symtab, those its debug info adds (its static
 * functions), which fdr record read with libdw before the run
 * (userspace/tools/fdr/patch_dwarf.c) into
 * $FDR_SYMDIR/fdr-dwarf.<st_dev>.<st_ino>.txt, UTF-8 text, lines
 *   fdr-dwarf 1
 *   file<TAB><st_size><TAB><st_mtime seconds>.<nanoseconds, 9 digits>
 *   debug<TAB><the file the DWARF came from>
 *   <link-time address, hex><TAB><size, hex><TAB><name>
 * the entries in increasing address order.  A list whose file line is
 * not the object's (a rebuilt file), or that is not well formed, is not
 * used: the process can write the data directory, so the list is read
 * as carefully as the symbol table (and an entry is patched only inside
 * an executable segment, as a symbol is).
 */
#ifndef FDR_PATCH_FUNCS_H
#define FDR_PATCH_FUNCS_H

#include <stddef.h>
#include <stdint.h>

#define FDR_PATCH_DWARF_PREFIX	"fdr-dwarf."
#define FDR_PATCH_DWARF_MAGIC	"fdr-dwarf 1"

struct fdr_patch_fn {
	uint64_t start, end;	/* link-time; end exclusive (start + 1: no size) */
	const char *name;	/* mapped for good */
};

struct fdr_patch_funcs {
	struct fdr_patch_fn *v;	/* by start; at equal starts the table's, globals first */
	size_t n;
	const char *table;	/* ".symtab", ".dynsym", or NULL: none */
	uint32_t ndwarf;	/* entries only the DWARF list had */
	const char *debug;	/* the DWARF's file, or NULL: no list used */
};

/* The entries of the object whose file is path (the executable's:
 * /proc/self/exe); 0, or -1 when it has neither a symbol table nor a
 * DWARF list. */
int fdr__patch_funcs_open(struct fdr_patch_funcs *fs, const char *path);
/* Frees the index; the names stay mapped. */
void fdr__patch_funcs_free(struct fdr_patch_funcs *fs);

#endif /* FDR_PATCH_FUNCS_H */
