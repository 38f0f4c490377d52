// SPDX-License-Identifier: MIT
/*
 * elf_info.c - section and symbol lookups by name in a mapped ELF64 file,
 * every offset checked against the file size (PROG may be anything).
 * Hand-written rather than libelf so that the static `fdr` of the VM
 * needs no extra library.
 */
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "elf_info.h"

struct elf {
	const uint8_t *p;
	size_t size;
	const Elf64_Shdr *sh;
	size_t nsh;
	const char *shstr;
	size_t shstrsz;
};

static bool in_file(const struct elf *e, uint64_t off, uint64_t len)
{
	return off <= e->size && len <= e->size - off;
}

static int elf_parse(struct elf *e)
{
	const Elf64_Ehdr *h = (const void *)e->p;
	const Elf64_Shdr *str;

	if (e->size < sizeof(*h) || memcmp(h->e_ident, ELFMAG, SELFMAG) ||
	    h->e_ident[EI_CLASS] != ELFCLASS64 || h->e_ident[EI_DATA] != ELFDATA2LSB ||
	    h->e_shentsize != sizeof(Elf64_Shdr) ||
	    !in_file(e, h->e_shoff, (uint64_t)h->e_shnum * sizeof(Elf64_Shdr)) ||
	    h->e_shstrndx >= h->e_shnum)
		return -ENOEXEC;
	e->sh = (const void *)(e->p + h->e_shoff);
	e->nsh = h->e_shnum;
	str = &e->sh[h->e_shstrndx];
	if (!in_file(e, str->sh_offset, str->sh_size))
		return -ENOEXEC;
	e->shstr = (const char *)e->p + str->sh_offset;
	e->shstrsz = str->sh_size;
	return 0;
}

static const Elf64_Shdr *section(const struct elf *e, const char *name)
{
	for (size_t i = 0; i < e->nsh; i++) {
		const Elf64_Shdr *s = &e->sh[i];

		if (s->sh_name < e->shstrsz &&
		    strnlen(e->shstr + s->sh_name, e->shstrsz - s->sh_name) == strlen(name) &&
		    !strcmp(e->shstr + s->sh_name, name) &&
		    (s->sh_type == SHT_NOBITS || in_file(e, s->sh_offset, s->sh_size)))
			return s;
	}
	return NULL;
}

/* The first defined symbol of symtab that match() takes (its name in
 * *name if name), or NULL; names are checked to end inside the string table. */
static const Elf64_Sym *find_symbol(const struct elf *e, const Elf64_Shdr *symtab,
				    bool (*match)(const Elf64_Sym *, const char *, const void *),
				    const void *arg, const char **name)
{
	const Elf64_Shdr *strs;
	const Elf64_Sym *sym;
	size_t n;

	if (!symtab || symtab->sh_link >= e->nsh)
		return NULL;
	strs = &e->sh[symtab->sh_link];
	if (!in_file(e, strs->sh_offset, strs->sh_size))
		return NULL;
	sym = (const void *)(e->p + symtab->sh_offset);
	n = symtab->sh_size / sizeof(*sym);
	for (size_t i = 0; i < n; i++) {
		const char *s = (const char *)e->p + strs->sh_offset + sym[i].st_name;

		if (sym[i].st_shndx != SHN_UNDEF && sym[i].st_name < strs->sh_size &&
		    strnlen(s, strs->sh_size - sym[i].st_name) < strs->sh_size - sym[i].st_name &&
		    match(&sym[i], s, arg)) {
			if (name)
				*name = s;
			return &sym[i];
		}
	}
	return NULL;
}

static bool named(const Elf64_Sym *sym, const char *name, const void *want)
{
	(void)sym;
	return !strcmp(name, want);
}

static bool function_at(const Elf64_Sym *sym, const char *name, const void *addr)
{
	(void)name;
	return ELF64_ST_TYPE(sym->st_info) == STT_FUNC && sym->st_value == *(const uint64_t *)addr;
}

/* Is name a defined symbol of the symbol table symtab? */
static bool defines(const struct elf *e, const Elf64_Shdr *symtab, const char *name)
{
	return find_symbol(e, symtab, named, name, NULL) != NULL;
}

static bool defines_any(const struct elf *e, const char *name)
{
	return defines(e, section(e, ".symtab"), name) ||
	       defines(e, section(e, ".dynsym"), name);
}

/* The value of the defined symbol name (.symtab, else .dynsym), 0 if none. */
static uint64_t symbol_value(const struct elf *e, const char *name)
{
	const Elf64_Sym *sym = find_symbol(e, section(e, ".symtab"), named, name, NULL);

	if (!sym)
		sym = find_symbol(e, section(e, ".dynsym"), named, name, NULL);
	return sym ? sym->st_value : 0;
}

static enum fdr_instr instrumentation(const struct elf *e)
{
	bool xray = section(e, "xray_instr_map") != NULL;

	if (xray)
		return defines_any(e, "fdr_xray_mode_link") ? FDR_INSTR_XRAY
							    : FDR_INSTR_XRAY_NO_MODE;
	if (defines_any(e, "fdr_patchable_mode_link"))
		return FDR_INSTR_PATCHABLE;
	if (defines_any(e, "__cyg_profile_func_enter"))
		return FDR_INSTR_CYG;
	/*
	 * A stripped program keeps xray_instr_map and, linked dynamically by
	 * fdr-cc --gcc, exports the hooks in .dynsym; one with neither is
	 * taken for uninstrumented (a stripped static hook build is the one
	 * case misjudged: rebuild it unstripped).
	 */
	return FDR_INSTR_NONE;
}

/* The GNU build-id note, as hex. */
static void build_id(const struct elf *e, char *out, size_t outsz)
{
	const Elf64_Shdr *s = section(e, ".note.gnu.build-id");
	const Elf64_Nhdr *n;
	const uint8_t *desc;

	out[0] = 0;
	if (!s || s->sh_size < sizeof(*n))
		return;
	n = (const void *)(e->p + s->sh_offset);
	if (n->n_type != NT_GNU_BUILD_ID || n->n_namesz != 4 ||
	    sizeof(*n) + 4 + (uint64_t)n->n_descsz > s->sh_size || n->n_descsz * 2 + 1 > outsz)
		return;
	desc = (const uint8_t *)(n + 1) + 4;
	for (size_t i = 0; i < n->n_descsz; i++)
		snprintf(out + 2 * i, 3, "%02x", desc[i]);
}

/* Map and parse path: 0, or -errno (-ENOEXEC: not ELF64 LE). */
static int elf_open(const char *path, struct elf *e)
{
	struct stat st;
	void *map;
	int fd = open(path, O_RDONLY | O_CLOEXEC), r;

	memset(e, 0, sizeof(*e));
	if (fd < 0)
		return -errno;
	if (fstat(fd, &st) || st.st_size <= 0) {
		close(fd);
		return -ENOEXEC;
	}
	map = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
	close(fd);
	if (map == MAP_FAILED)
		return -errno;
	e->p = map;
	e->size = (size_t)st.st_size;
	r = elf_parse(e);
	if (r)
		munmap(map, e->size);
	return r;
}

int fdr__elf_info(const char *path, struct fdr_elf_info *info)
{
	struct elf e;
	int r = elf_open(path, &e);

	if (r)
		return r;
	info->instr = instrumentation(&e);
	build_id(&e, info->build_id, sizeof(info->build_id));
	info->dynamic = section(&e, ".interp") != NULL;
	info->dlopen_seen = defines_any(&e, "__wrap_dlopen");
	info->entry = ((const Elf64_Ehdr *)e.p)->e_entry;
	info->attach_entry = symbol_value(&e, "fdr_attach_entry");
	munmap((void *)e.p, e.size);
	return 0;
}

int fdr__elf_function_name(const char *path, uint64_t addr, char *out, size_t outsz)
{
	const char *name = NULL;
	struct elf e;
	int r = elf_open(path, &e);

	if (r)
		return r;
	if (!find_symbol(&e, section(&e, ".symtab"), function_at, &addr, &name))
		find_symbol(&e, section(&e, ".dynsym"), function_at, &addr, &name);
	r = !name ? -ENOENT : snprintf(out, outsz, "%s", name) >= (int)outsz ? -ENAMETOOLONG : 0;
	munmap((void *)e.p, e.size);
	return r;
}

/*
 * XRay's numbering: sleds are 32 bytes (address u64, function u64, kind,
 * always-instrument, version u8); for version >= 2 the function address
 * is relative to the field.  Ids are 1-based, a new one each time the
 * function address changes (as fdrlog's symbols_instr_map.c).
 */
#define XRAY_SLED_SIZE 32

static int each_sled_function(const struct elf *e, const Elf64_Shdr *s,
			      fdr_elf_function_fn *fn, void *arg)
{
	const uint8_t *p = e->p + s->sh_offset;
	uint64_t cur = 0;
	int32_t fid = 0;
	int r = 0;

	for (uint64_t off = 0; !r && off + XRAY_SLED_SIZE <= s->sh_size; off += XRAY_SLED_SIZE) {
		const char *name = NULL;
		uint64_t f;

		memcpy(&f, p + off + 8, 8);
		if (p[off + 18] >= 2)
			f += s->sh_addr + off + 8;
		if (fid && f == cur)
			continue;
		cur = f;
		if (!find_symbol(e, section(e, ".symtab"), function_at, &f, &name))
			find_symbol(e, section(e, ".dynsym"), function_at, &f, &name);
		r = fn(arg, ++fid, f, name);
	}
	return r;
}

int fdr__elf_xray_functions(const char *path, fdr_elf_function_fn *fn, void *arg)
{
	const Elf64_Shdr *s;
	struct elf e;
	int r = elf_open(path, &e);

	if (r)
		return r;
	s = section(&e, "xray_instr_map");
	if (!s || s->sh_type == SHT_NOBITS)
		r = -ENOENT;
	else if (s->sh_size % XRAY_SLED_SIZE)
		r = -ENOEXEC;
	else
		r = each_sled_function(&e, s, fn, arg);
	munmap((void *)e.p, e.size);
	return r;
}
