// SPDX-License-Identifier: MIT
/*
 * module_lookup.c - find a code address's module with dl_iterate_phdr()
 * (which, unlike dladdr(), also works in static binaries) and keep one
 * table entry per module, so that its symbol table is mapped once.
 */
#include <link.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <linux/fdr.h>
#include "module_lookup.h"

static struct fdr_module modules[FDR_MODULES_MAX];
static uint32_t nr_modules;

struct phdr_search {
	uintptr_t addr;
	bool found;
	bool is_main;
	uintptr_t bias;
	const char *name;
	unsigned seen;
};

__FDR_NO_INSTRUMENT static int contains(const struct dl_phdr_info *info, uintptr_t addr)
{
	for (int i = 0; i < info->dlpi_phnum; i++) {
		const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
		uintptr_t lo = info->dlpi_addr + ph->p_vaddr;

		if (ph->p_type == PT_LOAD && addr >= lo && addr - lo < ph->p_memsz)
			return 1;
	}
	return 0;
}

__FDR_NO_INSTRUMENT static int search_cb(struct dl_phdr_info *info, size_t size, void *arg)
{
	struct phdr_search *s = arg;
	unsigned index = s->seen++;

	(void)size;
	if (!contains(info, s->addr))
		return 0;
	s->found = true;
	/* The loader lists the executable first, with an empty name. */
	s->is_main = index == 0;
	s->bias = info->dlpi_addr;
	s->name = info->dlpi_name;
	return 1;
}

__FDR_NO_INSTRUMENT static void module_path(char *out, size_t size,
				 const struct phdr_search *s)
{
	ssize_t n;

	if (s->is_main || !s->name || !s->name[0]) {
		n = readlink("/proc/self/exe", out, size - 1);
		if (n < 0)
			n = 0;
		out[n] = '\0';
		if (n == 0)
			strcpy(out, "?");
		return;
	}
	/* absolute, so that the file can still be opened (and the reader
	 * finds it) after a chdir; realpath into our buffer: no malloc */
	if (size >= PATH_MAX && realpath(s->name, out))
		return;
	strncpy(out, s->name, size - 1);
	out[size - 1] = '\0';
}

__FDR_NO_INSTRUMENT static struct fdr_module *remember(const struct phdr_search *s)
{
	char path[PATH_MAX];
	struct fdr_module *m;

	/* One executable per process: its load bias names it, without the
	 * readlink() per lookup (fdr record -P names thousands of its
	 * functions at start-up). */
	for (uint32_t i = 0; s->is_main && i < nr_modules; i++)
		if (modules[i].is_main && modules[i].bias == s->bias)
			return &modules[i];
	module_path(path, sizeof(path), s);
	for (uint32_t i = 0; i < nr_modules; i++) {
		m = &modules[i];
		if (m->bias == s->bias && strcmp(m->path, path) == 0)
			return m;
	}
	if (nr_modules == FDR_MODULES_MAX)
		return NULL;
	m = &modules[nr_modules];
	m->bias = s->bias;
	m->is_main = s->is_main;
	m->symtab_err = 1;
	m->index = nr_modules++;
	memcpy(m->path, path, sizeof(path));
	return m;
}

__FDR_NO_INSTRUMENT struct fdr_module *fdr__module_find(uintptr_t addr)
{
	struct phdr_search s = { .addr = addr };

	dl_iterate_phdr(search_cb, &s);
	return s.found ? remember(&s) : NULL;
}

__FDR_NO_INSTRUMENT struct fdr_module *fdr__module_at(uint32_t index)
{
	return index < nr_modules ? &modules[index] : NULL;
}

__FDR_NO_INSTRUMENT const char *fdr__module_symbol(struct fdr_module *m, uint64_t vaddr)
{
	if (m->symtab_err == 1)	/* the main program reads itself via /proc */
		m->symtab_err = fdr__elf_symtab_open(&m->symtab,
			m->is_main ? "/proc/self/exe" : m->path);
	if (m->symtab_err)
		return NULL;
	return fdr__elf_symtab_lookup(&m->symtab, vaddr);
}
