/* SPDX-License-Identifier: MIT */
/*
 * module_lookup.h - which loaded ELF object holds a code address.
 *
 * Used by the -finstrument-functions slow path (first sight of a
 * function), always under its lock.  A module is named by its path and
 * addressed by its load bias: bias + link-time address = run-time address,
 * so (module, address - bias) does not change between runs, whatever
 * ASLR does, and equals what `nm` prints for the function.
 */
#ifndef FDR_MODULE_LOOKUP_H
#define FDR_MODULE_LOOKUP_H

#include <limits.h>
#include <stdbool.h>
#include <stdint.h>

#include "elf_symtab.h"

#define FDR_MODULES_MAX	256

struct fdr_module {
	uintptr_t bias;		/* dlpi_addr */
	bool is_main;		/* the executable itself */
	int symtab_err;		/* 0 ok, 1 not tried yet, < 0 errno */
	uint32_t index;		/* position in the module table */
	char path[PATH_MAX];	/* absolute path, as recorded in the sym-map */
	struct fdr_elf_symtab symtab;
};

/* The module containing addr, or NULL (JIT code, unknown mappings). */
struct fdr_module *fdr__module_find(uintptr_t addr);

/* Module by table index (for rewriting the sym-map after fork), or NULL. */
struct fdr_module *fdr__module_at(uint32_t index);

/* Name of the function at link-time address vaddr of m, or NULL. */
const char *fdr__module_symbol(struct fdr_module *m, uint64_t vaddr);

#endif /* FDR_MODULE_LOOKUP_H */
