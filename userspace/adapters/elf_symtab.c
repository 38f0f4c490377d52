// SPDX-License-Identifier: MIT
/*
 * elf_symtab.c - a read-only .symtab/.dynsym lookup over an mmap'd file.
 *
 * Every offset read from the file is bounds-checked against its size: a
 * truncated or odd file must give "unknown", never a crash inside a
 * trace hook.
 */
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "elf_symtab.h"
#include <linux/fdr.h>

__FDR_NO_INSTRUMENT static int in_file(const struct fdr_elf_symtab *st, uint64_t off,
			    uint64_t len)
{
	return off <= st->size && len <= st->size - off;
}

__FDR_NO_INSTRUMENT static const Elf64_Shdr *section(const struct fdr_elf_symtab *st,
					  const Elf64_Ehdr *eh, unsigned i)
{
	uint64_t off = eh->e_shoff + (uint64_t)i * eh->e_shentsize;

	if (i >= eh->e_shnum || eh->e_shentsize < sizeof(Elf64_Shdr) ||
	    !in_file(st, off, sizeof(Elf64_Shdr)))
		return NULL;
	return (const Elf64_Shdr *)(st->image + off);
}

/* Use the first section of type want, with its linked string table. */
__FDR_NO_INSTRUMENT static int pick_table(struct fdr_elf_symtab *st,
			       const Elf64_Ehdr *eh, uint32_t want)
{
	for (unsigned i = 0; i < eh->e_shnum; i++) {
		const Elf64_Shdr *sh = section(st, eh, i), *str;

		if (!sh || sh->sh_type != want)
			continue;
		str = section(st, eh, sh->sh_link);
		if (!str || !in_file(st, sh->sh_offset, sh->sh_size) ||
		    !in_file(st, str->sh_offset, str->sh_size))
			return -ENOEXEC;
		st->syms = st->image + sh->sh_offset;
		st->nsyms = sh->sh_size / sizeof(Elf64_Sym);
		st->strtab = (const char *)st->image + str->sh_offset;
		st->strsz = str->sh_size;
		st->table = want;
		return 0;
	}
	return -ENOENT;
}

__FDR_NO_INSTRUMENT static int map_file(struct fdr_elf_symtab *st, const char *path)
{
	struct stat sb;
	void *p;
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return -errno;
	if (fstat(fd, &sb) || sb.st_size < (off_t)sizeof(Elf64_Ehdr)) {
		close(fd);
		return -ENOEXEC;
	}
	p = mmap(NULL, (size_t)sb.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
	close(fd);
	if (p == MAP_FAILED)
		return -errno;
	st->image = p;
	st->size = (size_t)sb.st_size;
	return 0;
}

/* One function symbol of the sorted index. */
struct fdr_elf_func {
	uint64_t start;
	uint64_t end;		/* exclusive; start + 1 for size-less symbols */
	uint32_t name;		/* offset in strtab */
	uint32_t is_local;	/* sorts globals first among equal starts */
};

__FDR_NO_INSTRUMENT static int func_before(const struct fdr_elf_func *a,
				const struct fdr_elf_func *b)
{
	if (a->start != b->start)
		return a->start < b->start;
	return a->is_local < b->is_local;
}

__FDR_NO_INSTRUMENT static void sift_down(struct fdr_elf_func *f, size_t root, size_t n)
{
	for (;;) {
		size_t child = 2 * root + 1;
		struct fdr_elf_func tmp;

		if (child >= n)
			return;
		if (child + 1 < n && func_before(&f[child], &f[child + 1]))
			child++;
		if (!func_before(&f[root], &f[child]))
			return;
		tmp = f[root];
		f[root] = f[child];
		f[child] = tmp;
		root = child;
	}
}

/* Heapsort: in place, no allocation, no recursion. */
__FDR_NO_INSTRUMENT static void sort_funcs(struct fdr_elf_func *f, size_t n)
{
	for (size_t i = n / 2; i-- > 0;)
		sift_down(f, i, n);
	for (size_t end = n; end > 1; end--) {
		struct fdr_elf_func tmp = f[0];

		f[0] = f[end - 1];
		f[end - 1] = tmp;
		sift_down(f, 0, end - 1);
	}
}

__FDR_NO_INSTRUMENT static int is_function(const struct fdr_elf_symtab *st,
				const Elf64_Sym *s)
{
	unsigned type = ELF64_ST_TYPE(s->st_info);

	return (type == STT_FUNC || type == STT_GNU_IFUNC) &&
	       s->st_shndx != SHN_UNDEF && s->st_name < st->strsz &&
	       memchr(st->strtab + s->st_name, '\0', st->strsz - s->st_name);
}

/* Build the sorted index in anonymous memory (not malloc: hooks may run
 * where the allocator is not safe to re-enter). */
__FDR_NO_INSTRUMENT static int build_index(struct fdr_elf_symtab *st)
{
	const Elf64_Sym *syms = st->syms;
	size_t n = 0, bytes;
	void *p;

	for (size_t i = 0; i < st->nsyms; i++)
		n += is_function(st, &syms[i]);
	if (n == 0)
		return -ENOENT;
	bytes = n * sizeof(struct fdr_elf_func);
	p = mmap(NULL, bytes, PROT_READ | PROT_WRITE,
		 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED)
		return -errno;
	st->funcs = p;
	for (size_t i = 0; i < st->nsyms; i++) {
		const Elf64_Sym *s = &syms[i];

		if (!is_function(st, s))
			continue;
		st->funcs[st->nfuncs++] = (struct fdr_elf_func){
			.start = s->st_value,
			.end = s->st_value + (s->st_size ? s->st_size : 1),
			.name = s->st_name,
			.is_local = ELF64_ST_BIND(s->st_info) == STB_LOCAL,
		};
	}
	sort_funcs(st->funcs, st->nfuncs);
	return 0;
}

/* The first index entry whose start is above vaddr. */
__FDR_NO_INSTRUMENT static size_t upper_bound(const struct fdr_elf_symtab *st,
				   uint64_t vaddr)
{
	size_t lo = 0, hi = st->nfuncs;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (st->funcs[mid].start <= vaddr)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

__FDR_NO_INSTRUMENT const char *fdr__elf_symtab_lookup(const struct fdr_elf_symtab *st,
					   uint64_t vaddr)
{
	size_t i = upper_bound(st, vaddr);
	const struct fdr_elf_func *hit = NULL;

	/* Walk back over the symbols starting at or below vaddr; among the
	 * ones covering it the lowest index is global-first for its start. */
	for (size_t k = 0; k < 16 && i > 0; k++) {
		const struct fdr_elf_func *f = &st->funcs[--i];

		if (vaddr < f->end)
			hit = f;
		if (hit && (i == 0 || st->funcs[i - 1].start != f->start))
			break;
	}
	return hit ? st->strtab + hit->name : NULL;
}

__FDR_NO_INSTRUMENT const char *fdr__elf_symtab_func(const struct fdr_elf_symtab *st, size_t i,
						     uint64_t *start, uint64_t *end)
{
	*start = st->funcs[i].start;
	*end = st->funcs[i].end;
	return st->strtab + st->funcs[i].name;
}

__FDR_NO_INSTRUMENT int fdr__elf_symtab_open(struct fdr_elf_symtab *st, const char *path)
{
	const Elf64_Ehdr *eh;
	int ret;

	memset(st, 0, sizeof(*st));
	ret = map_file(st, path);
	if (ret)
		return ret;
	eh = (const Elf64_Ehdr *)st->image;
	if (memcmp(eh->e_ident, ELFMAG, SELFMAG) ||
	    eh->e_ident[EI_CLASS] != ELFCLASS64)
		ret = -ENOEXEC;
	else
		ret = pick_table(st, eh, SHT_SYMTAB);
	if (ret == -ENOENT)
		ret = pick_table(st, eh, SHT_DYNSYM);
	if (!ret)
		ret = build_index(st);
	if (ret) {
		munmap((void *)st->image, st->size);
		memset(st, 0, sizeof(*st));
	}
	return ret;
}

__FDR_NO_INSTRUMENT void fdr__elf_symtab_close(struct fdr_elf_symtab *st)
{
	if (st->funcs)
		munmap(st->funcs, st->nfuncs * sizeof(struct fdr_elf_func));
	if (st->image)
		munmap((void *)st->image, st->size);
	memset(st, 0, sizeof(*st));
}
