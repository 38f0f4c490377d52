/* SPDX-License-Identifier: MIT */
/*
 * elf_symtab.h - name the function at a link-time address of an ELF file.
 *
 * The -finstrument-functions hooks resolve a function once, on first
 * sight.  dladdr() only knows exported (.dynsym) names and nothing at all
 * in a static binary, so the file's own .symtab is read instead (falling
 * back to .dynsym when stripped).  The file is mapped read-only once per
 * module and never freed: no malloc, nothing that can fail later.
 */
#ifndef FDR_ELF_SYMTAB_H
#define FDR_ELF_SYMTAB_H

#include <stddef.h>
#include <stdint.h>

struct fdr_elf_func;

struct fdr_elf_symtab {
	const unsigned char *image;	/* the whole file, mapped */
	size_t size;
	const void *syms;		/* Elf64_Sym[nsyms] */
	size_t nsyms;
	const char *strtab;
	size_t strsz;
	struct fdr_elf_func *funcs;	/* function symbols sorted by address */
	size_t nfuncs;
	uint32_t table;			/* SHT_SYMTAB, or SHT_DYNSYM when stripped */
};

/* Map path and find its symbol table.  Returns 0 or a negative errno
 * (-ENOEXEC: not a 64-bit ELF file, -ENOENT: no symbol table). */
int fdr__elf_symtab_open(struct fdr_elf_symtab *st, const char *path);

/* The function symbol covering vaddr, or NULL. */
const char *fdr__elf_symtab_lookup(const struct fdr_elf_symtab *st,
				  uint64_t vaddr);

/* Unmap what open mapped (the XRay mode's library filter: it needs the
 * names only while it patches). */
void fdr__elf_symtab_close(struct fdr_elf_symtab *st);

/* Function i (< nfuncs) of the index, in address order, globals first
 * among equal starts: its name, link-time start and end (start + 1 for
 * a symbol without a size). */
const char *fdr__elf_symtab_func(const struct fdr_elf_symtab *st, size_t i,
				 uint64_t *start, uint64_t *end);

#endif /* FDR_ELF_SYMTAB_H */
