/* SPDX-License-Identifier: MIT */
/*
 * elf_info.h - what `fdr record` needs to know about PROG before running
 * it: is it instrumented for fdr (and how), and its build-id, which goes
 * into the data directory so that `fdr report` can tell a rebuilt binary.
 */
#ifndef FDR_ELF_INFO_H
#define FDR_ELF_INFO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum fdr_instr {
	FDR_INSTR_NONE,		/* no sign of instrumentation */
	FDR_INSTR_XRAY,		/* xray_instr_map and the fdr XRay mode */
	FDR_INSTR_XRAY_NO_MODE,	/* -fxray-instrument, but not the fdr mode */
	FDR_INSTR_CYG,		/* the -finstrument-functions hooks */
	FDR_INSTR_PATCHABLE,	/* fdr-cc --patchable: nop sites, fdr's runtime */
};

struct fdr_elf_info {
	enum fdr_instr instr;
	char build_id[2 * 64 + 1];	/* hex, "" if none */
	uint64_t entry;			/* e_entry: with AT_ENTRY, the load bias */
	uint64_t attach_entry;		/* fdr_attach_entry's value, 0 if none */
	bool dynamic;			/* has .interp: the loader preloads */
	bool dlopen_seen;		/* fdr-cc's dlopen() wrapper: libraries
					 * loaded later get their sleds patched */
};

/*
 * Read path.  0, -ENOEXEC (not a 64-bit little-endian ELF file) or
 * another negative errno.
 */
int fdr__elf_info(const char *path, struct fdr_elf_info *info);

/* The symbol-table name (.symtab, else .dynsym; C++ names mangled) of the
 * function at link-time address addr: 0, -ENOENT or another -errno. */
int fdr__elf_function_name(const char *path, uint64_t addr, char *out, size_t outsz);

/*
 * Each function of path's xray_instr_map, numbered as the XRay runtime
 * numbers them, with its link-time address and symbol-table name (NULL
 * if none), in id order; fn's non-zero return stops.  0, fn's return,
 * -ENOENT (no xray_instr_map), -ENOEXEC or another -errno.  Without
 * libdw: the static fdr of the VM names its XRay runs with it.
 */
typedef int fdr_elf_function_fn(void *arg, int32_t fid, uint64_t addr, const char *name);
int fdr__elf_xray_functions(const char *path, fdr_elf_function_fn *fn, void *arg);

#endif
