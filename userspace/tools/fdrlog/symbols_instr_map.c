// SPDX-License-Identifier: MIT
/*
 * symbols_instr_map.c - function ids from the xray_instr_map section of a
 * -fxray-instrument ELF binary, names from its DWARF (libdw) or, failing
 * that, its symbol table or dynamic symbol table (libelf).
 *
 * Sleds are 32 bytes on 64-bit targets: address u64, function u64, kind u8,
 * always-instrument u8, version u8.  For version >= 2 both addresses are
 * relative to the field's own location.  Ids are numbered as the XRay
 * runtime and llvm-xray number them: 1-based, a new id each time the
 * sled's function address changes.  C++ names are demangled, as
 * llvm-xray's symbolizer does, with libstdc++'s demangler (its text can
 * differ from LLVM's for lambdas and the like).  Relocatable objects (.o,
 * whose addresses need relocations) are not supported.
 */
#include <elfutils/libdw.h>
#include <dwarf.h>
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "symbols_internal.h"

#define SLED_SIZE 32

static Elf_Scn *find_section(Elf *elf, const char *want, GElf_Shdr *shdr)
{
	size_t shstrndx;
	Elf_Scn *scn = NULL;

	if (elf_getshdrstrndx(elf, &shstrndx))
		return NULL;
	while ((scn = elf_nextscn(elf, scn)) != NULL) {
		const char *name;

		if (!gelf_getshdr(scn, shdr))
			continue;
		name = elf_strptr(elf, shstrndx, shdr->sh_name);
		if (name && !strcmp(name, want))
			return scn;
	}
	return NULL;
}

/* The DWARF name of the subprogram at addr: linkage name, else name. */
static const char *dwarf_function_name(Dwarf *dw, uint64_t addr)
{
	Dwarf_Die cu, *scopes = NULL;
	const char *name = NULL;
	int n;

	if (!dw || !dwarf_addrdie(dw, addr, &cu))
		return NULL;
	n = dwarf_getscopes(&cu, addr, &scopes);
	for (int i = 0; i < n && !name; i++) {
		Dwarf_Attribute at;

		if (dwarf_tag(&scopes[i]) != DW_TAG_subprogram)
			continue;
		name = dwarf_formstring(dwarf_attr_integrate(&scopes[i], DW_AT_linkage_name, &at));
		if (!name)
			name = dwarf_diename(&scopes[i]);
	}
	free(scopes);
	return name;
}

/*
 * The STT_FUNC symbols of one symbol table, sorted by start address: a
 * name is looked up once per function, and walking the table for each
 * made a program of 20,000 functions take seconds to name.
 */
struct func_sym {
	uint64_t start, end;	/* end: start + size */
	size_t order;		/* position in the table: the first wins a tie */
	const char *name;
};

struct func_index {
	struct func_sym *v;
	size_t n;
};

static int func_sym_cmp(const void *a, const void *b)
{
	const struct func_sym *x = a, *y = b;

	if (x->start != y->start)
		return x->start < y->start ? -1 : 1;
	return x->order < y->order ? -1 : x->order > y->order;
}

/* Index the symbol tables of type (SHT_SYMTAB/SHT_DYNSYM); 0 or -ENOMEM. */
static int func_index_build(Elf *elf, Elf64_Word type, struct func_index *ix)
{
	Elf_Scn *scn = NULL;
	GElf_Shdr shdr;

	ix->v = NULL;
	ix->n = 0;
	while ((scn = elf_nextscn(elf, scn)) != NULL) {
		Elf_Data *data;
		size_t count;
		struct func_sym *v;

		if (!gelf_getshdr(scn, &shdr) || shdr.sh_type != type || !shdr.sh_entsize)
			continue;
		data = elf_getdata(scn, NULL);
		if (!data)
			continue;
		/* what was read, not what a hostile header claims */
		count = data->d_size / shdr.sh_entsize;
		if (!count)
			continue;
		v = realloc(ix->v, (ix->n + count) * sizeof(*v));
		if (!v)
			return -ENOMEM;
		ix->v = v;
		for (size_t i = 0; i < count; i++) {
			GElf_Sym sym;
			const char *name;

			if (!gelf_getsym(data, (int)i, &sym) ||
			    GELF_ST_TYPE(sym.st_info) != STT_FUNC ||
			    !(name = elf_strptr(elf, shdr.sh_link, sym.st_name)))
				continue;
			v[ix->n] = (struct func_sym){ sym.st_value, sym.st_value + sym.st_size,
						      ix->n, name };
			ix->n++;
		}
	}
	if (ix->n)
		qsort(ix->v, ix->n, sizeof(*ix->v), func_sym_cmp);
	return 0;
}

/*
 * The function at addr: the first symbol starting there, else the
 * nearest one below whose size covers it (a few steps back, past
 * zero-sized symbols and aliases at the same start).
 */
static const char *func_index_name(const struct func_index *ix, uint64_t addr)
{
	size_t lo = 0, hi = ix->n;

	while (lo < hi) {	/* lo: the first symbol starting at or after addr */
		size_t mid = lo + (hi - lo) / 2;

		if (ix->v[mid].start < addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo < ix->n && ix->v[lo].start == addr)
		return ix->v[lo].name;
	for (size_t i = lo, steps = 0; i > 0 && steps < 16; i--, steps++)
		if (addr < ix->v[i - 1].end)
			return ix->v[i - 1].name;
	return NULL;
}

struct func_names {
	struct func_index symtab, dynsym;
};

/* .symtab, else .dynsym (what a stripped -rdynamic binary still has). */
static const char *symtab_function_name(const struct func_names *fn, uint64_t addr)
{
	const char *name = func_index_name(&fn->symtab, addr);

	return name ? name : func_index_name(&fn->dynsym, addr);
}

static int add_function(struct symbols *s, const struct func_names *names, Dwarf *dw,
			int32_t fid, uint64_t fn)
{
	const char *name = dwarf_function_name(dw, fn);
	char *copy = NULL;

	if (!name)
		name = symtab_function_name(names, fn);
	if (name && !(copy = symbols_demangled_copy(name)))
		return -1;
	return symbols_add(s, fid, fn, copy);
}

static int read_sleds(struct symbols *s, const struct func_names *names, Dwarf *dw,
		      const GElf_Shdr *shdr, const uint8_t *p, size_t size)
{
	uint64_t cur_fn = 0;
	int32_t fid = 1;

	for (size_t off = 0; off + SLED_SIZE <= size; off += SLED_SIZE) {
		uint64_t fn;
		uint8_t version = p[off + 18];

		memcpy(&fn, p + off + 8, 8);
		if (version >= 2)
			fn += shdr->sh_addr + off + 8;
		if (cur_fn == 0) {
			cur_fn = fn;
			if (add_function(s, names, dw, fid, fn))
				return -1;
		}
		if (fn != cur_fn) {
			fid++;
			cur_fn = fn;
			if (add_function(s, names, dw, fid, fn))
				return -1;
		}
	}
	return 0;
}

static int load(struct symbols *s, Elf *elf, const char *path, char *msg, size_t msg_size)
{
	GElf_Ehdr ehdr;
	GElf_Shdr shdr;
	Elf_Scn *scn;
	Elf_Data *data;
	Dwarf *dw;
	struct func_names names = { { NULL, 0 }, { NULL, 0 } };
	int r;

	if (elf_kind(elf) != ELF_K_ELF || !gelf_getehdr(elf, &ehdr)) {
		snprintf(msg, msg_size, "%s: not an ELF file", path);
		return -1;
	}
	if (ehdr.e_ident[EI_CLASS] != ELFCLASS64 || ehdr.e_ident[EI_DATA] != ELFDATA2LSB) {
		snprintf(msg, msg_size, "%s: only 64-bit little-endian ELF is supported", path);
		return -1;
	}
	scn = find_section(elf, "xray_instr_map", &shdr);
	if (!scn || !(data = elf_getdata(scn, NULL)) || !data->d_buf) {
		snprintf(msg, msg_size, "%s: no xray_instr_map section (was it built with "
			 "-fxray-instrument?)", path);
		return -1;
	}
	if (data->d_size % SLED_SIZE) {
		snprintf(msg, msg_size, "%s: xray_instr_map is %zu bytes, expected a "
			 "multiple of %d", path, data->d_size, SLED_SIZE);
		return -1;
	}
	dw = dwarf_begin_elf(elf, DWARF_C_READ, NULL);
	r = func_index_build(elf, SHT_SYMTAB, &names.symtab) ||
	    func_index_build(elf, SHT_DYNSYM, &names.dynsym);
	if (!r)
		r = read_sleds(s, &names, dw, &shdr, data->d_buf, data->d_size);
	free(names.symtab.v);
	free(names.dynsym.v);
	if (dw)
		dwarf_end(dw);
	if (r)
		snprintf(msg, msg_size, "%s: out of memory", path);
	return r;
}

int symbols_from_instr_map(struct symbols **out, const char *path, char *msg, size_t msg_size)
{
	struct symbols *s;
	Elf *elf;
	int fd, r;

	*out = NULL;
	elf_version(EV_CURRENT);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		snprintf(msg, msg_size, "cannot open instrumentation map %s: %s", path,
			 strerror(errno));
		return -1;
	}
	elf = elf_begin(fd, ELF_C_READ, NULL);
	s = symbols_new();
	if (!elf || !s) {
		snprintf(msg, msg_size, "%s: %s", path, elf ? "out of memory" : elf_errmsg(-1));
		r = -1;
	} else {
		r = load(s, elf, path, msg, msg_size);
	}
	if (elf)
		elf_end(elf);
	close(fd);
	if (r) {
		symbols_free(s);
		return -1;
	}
	symbols_seal(s);
	*out = s;
	return 0;
}
