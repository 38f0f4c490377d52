// SPDX-License-Identifier: MIT
/*
 * patch_imports.c - the functions fdr's runtime calls by name: a program
 * or library that defines one (an allocator's malloc, a wrapper of
 * write or clock_gettime) interposes it for libfdr-plt.so too, and a
 * patch of it would enter the hook from inside the hook, or the patcher
 * from inside itself.  Such a function is refused as "used by fdr's
 * runtime", as libc's are (patch_libs.c).
 *
 * The names are libfdr-plt.so's own imports: the undefined symbols of
 * its dynamic relocations (it is linked -z now, so every one is there),
 * read from its loaded image once.
 */
#include <link.h>
#include <stdlib.h>
#include <string.h>

#include "patch_hook.h"

struct imports {
	const char **v;
	size_t n;
	bool read;
};

static struct imports imports;

static int by_name(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

struct dyn {
	const ElfW(Sym) *sym;
	const char *str;
	const ElfW(Rela) *rel[2];
	size_t nrel[2];
};

static void read_dynamic(const ElfW(Dyn) *d, struct dyn *y)
{
	for (; d->d_tag != DT_NULL; d++) {
		if (d->d_tag == DT_SYMTAB)
			y->sym = (const void *)d->d_un.d_ptr;
		else if (d->d_tag == DT_STRTAB)
			y->str = (const void *)d->d_un.d_ptr;
		else if (d->d_tag == DT_JMPREL)
			y->rel[0] = (const void *)d->d_un.d_ptr;
		else if (d->d_tag == DT_PLTRELSZ)
			y->nrel[0] = d->d_un.d_val / sizeof(ElfW(Rela));
		else if (d->d_tag == DT_RELA)
			y->rel[1] = (const void *)d->d_un.d_ptr;
		else if (d->d_tag == DT_RELASZ)
			y->nrel[1] = d->d_un.d_val / sizeof(ElfW(Rela));
	}
}

static void add_undefined(const struct dyn *y)
{
	size_t max = y->nrel[0] + y->nrel[1];

	if (!y->sym || !y->str || !(imports.v = malloc((max + 1) * sizeof(*imports.v))))
		return;
	for (int k = 0; k < 2; k++)
		for (size_t i = 0; y->rel[k] && i < y->nrel[k]; i++) {
			const ElfW(Sym) *s = &y->sym[ELF64_R_SYM(y->rel[k][i].r_info)];

			if (ELF64_R_SYM(y->rel[k][i].r_info) && s->st_shndx == SHN_UNDEF)
				imports.v[imports.n++] = y->str + s->st_name;
		}
	qsort(imports.v, imports.n, sizeof(*imports.v), by_name);
}

/* The loader relocated the runtime's own dynamic section in place. */
static int own_object(struct dl_phdr_info *info, size_t size, void *arg)
{
	uintptr_t self = (uintptr_t)fdr__patch_runtime_imports;
	const ElfW(Dyn) *dyn = NULL;
	bool mine = false;

	(void)size;
	for (int i = 0; i < info->dlpi_phnum; i++) {
		const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
		uintptr_t lo = info->dlpi_addr + ph->p_vaddr;

		if (ph->p_type == PT_DYNAMIC)
			dyn = (const void *)lo;
		mine |= ph->p_type == PT_LOAD && self >= lo && self - lo < ph->p_memsz;
	}
	if (!mine || !dyn)
		return 0;
	read_dynamic(dyn, arg);
	return 1;
}

bool fdr__patch_runtime_imports(const char *name)
{
	struct dyn y = { 0 };

	if (!imports.read) {	/* the preload constructor, or under dlopen's lock */
		imports.read = true;
		dl_iterate_phdr(own_object, &y);
		add_undefined(&y);
	}
	return imports.n && bsearch(&name, imports.v, imports.n, sizeof(*imports.v), by_name);
}
