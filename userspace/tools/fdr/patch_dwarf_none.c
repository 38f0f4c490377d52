// SPDX-License-Identifier: MIT
/*
 * patch_dwarf_none.c - `fdr record -P` in the static fdr of the VM, which
 * is linked without libdw (patch_dwarf.c reads DWARF with it): the
 * function entries are the symbol tables' only (the coverage line says
 * which table).
 */
#include "record.h"

void fdr__patch_dwarf(const struct record_opts *o, const struct prog *p, const char *dir)
{
	(void)o;
	(void)p;
	(void)dir;
}
