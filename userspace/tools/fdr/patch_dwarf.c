// SPDX-License-Identifier: MIT
/*
 * patch_dwarf.c - `fdr record -P`: the function entries a stripped
 * object's debug info knows and its .dynsym does not (its static
 * functions), for the preloaded runtime (userspace/adapters/
 * patch_funcs.c), which reads no DWARF itself: libdw in the process
 * would be one more library of fdr's own, never patched, and the
 * constructor would grow by a DWARF reader.
 *
 * Only for an object without .symtab (whose own symbols are complete).
 * The debug info is the file's own, else found as gdb finds it: by its
 * NT_GNU_BUILD_ID note, DEBUGDIR/.build-id/xx/yyyy.debug, then by its
 * .gnu_debuglink, next to it, in .debug/ beside it, and under
 * DEBUGDIR/<its directory>; DEBUGDIR is /usr/lib/debug, or
 * $FDR_DEBUG_DIR.  A debug file whose build id differs is not used.
 *
 * Each DW_TAG_subprogram with code (DW_AT_low_pc/high_pc, or ranges
 * and an entry pc; not a declaration nor an inline-only abstract
 * instance) gives one entry: its link-time address, the size of the
 * range holding it and its linkage name (else its name).  Written to
 * DIR/fdr-dwarf.<dev>.<ino>.txt (patch_dwarf.h), which the runtime
 * finds by the object's own device and inode.
 */
#include <dwarf.h>
#include <elfutils/libdw.h>
#include <elfutils/libdwelf.h>
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "record.h"

/* The list's name and form: userspace/adapters/patch_funcs.h. */
#define FDR_PATCH_DWARF_PREFIX	"fdr-dwarf."
#define FDR_PATCH_DWARF_MAGIC	"fdr-dwarf 1"
#define FDR_DEBUG_DIR_ENV	"FDR_DEBUG_DIR"
#define DEBUG_DIR_DEFAULT	"/usr/lib/debug"

struct entry {
	uint64_t at, size;
	const char *name;	/* libdw's, valid while the Dwarf is open */
};

struct entries {
	struct entry *v;
	size_t n, cap;
};

static int add(struct entries *e, uint64_t at, uint64_t size, const char *name)
{
	struct entry *v;

	if (e->n == e->cap) {
		v = realloc(e->v, (e->cap ? 2 * e->cap : 256) * sizeof(*v));
		if (!v)
			return -1;
		e->v = v;
		e->cap = e->cap ? 2 * e->cap : 256;
	}
	e->v[e->n++] = (struct entry){ at, size, name };
	return 0;
}

/* The linkage name (a C++ function's, as its symbol), else the name. */
static const char *name_of(Dwarf_Die *die)
{
	Dwarf_Attribute a;
	const char *n = dwarf_formstring(dwarf_attr_integrate(die, DW_AT_linkage_name, &a));

	if (!n)
		n = dwarf_formstring(dwarf_attr_integrate(die, DW_AT_MIPS_linkage_name, &a));
	return n ? n : dwarf_formstring(dwarf_attr_integrate(die, DW_AT_name, &a));
}

/* A subprogram with code: its entry (DW_AT_entry_pc, DW_AT_low_pc, or
 * the start of its first range: GCC lists a function's hot part, which
 * holds the entry, before its .cold part) and the range holding it. */
static int one_function(Dwarf_Die *die, struct entries *e)
{
	Dwarf_Addr entry = 0, base, lo, hi;
	const char *name;
	ptrdiff_t off = 0;

	if (dwarf_hasattr(die, DW_AT_declaration) || !(name = name_of(die)) || !*name)
		return 0;
	if (dwarf_entrypc(die, &entry) && dwarf_ranges(die, 0, &base, &entry, &hi) <= 0)
		return 0;	/* no code: inlined only, or discarded */
	while (entry && (off = dwarf_ranges(die, off, &base, &lo, &hi)) > 0)
		if (entry >= lo && entry < hi)
			return add(e, entry, hi - entry, name);
	return 0;
}

/* Every subprogram under die (namespaces, classes, nested functions). */
static int walk(Dwarf_Die *die, struct entries *e, int depth)
{
	Dwarf_Die child;

	if (dwarf_child(die, &child) != 0 || depth > 64)
		return 0;
	do {
		if (dwarf_tag(&child) == DW_TAG_subprogram && one_function(&child, e))
			return -1;
		if (dwarf_haschildren(&child) && walk(&child, e, depth + 1))
			return -1;
	} while (dwarf_siblingof(&child, &child) == 0);
	return 0;
}

static int collect(Dwarf *dw, struct entries *e)
{
	Dwarf_CU *cu = NULL;
	Dwarf_Die cudie, subdie;
	uint8_t type;

	while (dwarf_get_units(dw, cu, &cu, NULL, &type, &cudie, &subdie) == 0)
		if (walk(&cudie, e, 0))
			return -1;
	return 0;
}

static int by_address(const void *a, const void *b)
{
	const struct entry *x = a, *y = b;

	return x->at < y->at ? -1 : x->at > y->at;
}

/* Does the object have a symbol table of its own (then it is complete)? */
static bool has_symtab(Elf *elf)
{
	Elf_Scn *scn = NULL;
	GElf_Shdr sh;

	while ((scn = elf_nextscn(elf, scn)))
		if (gelf_getshdr(scn, &sh) && sh.sh_type == SHT_SYMTAB)
			return true;
	return false;
}

struct found {
	int fd;
	Elf *elf;
	Dwarf *dw;
	char path[PATH_MAX];
};

static void found_close(struct found *f)
{
	if (f->dw)
		dwarf_end(f->dw);
	if (f->elf)
		elf_end(f->elf);
	if (f->fd >= 0)
		close(f->fd);
	*f = (struct found){ .fd = -1 };
}

/* Does dw describe a compilation unit (not merely .debug_frame)? */
static bool has_units(Dwarf *dw)
{
	Dwarf_CU *cu = NULL;
	Dwarf_Die cudie, subdie;
	uint8_t type;

	return dwarf_get_units(dw, NULL, &cu, NULL, &type, &cudie, &subdie) == 0;
}

/* path's DWARF, unless both it and the object have a build id and they differ. */
static bool try_debug(struct found *f, const char *path, const void *id, ssize_t idlen)
{
	const void *did;
	ssize_t dlen;

	*f = (struct found){ .fd = open(path, O_RDONLY | O_CLOEXEC) };
	if (f->fd < 0)
		return false;
	f->elf = elf_begin(f->fd, ELF_C_READ_MMAP, NULL);
	dlen = f->elf ? dwelf_elf_gnu_build_id(f->elf, &did) : -1;
	if (!f->elf || (idlen > 0 && dlen > 0 && (dlen != idlen || memcmp(id, did, (size_t)idlen))) ||
	    !(f->dw = dwarf_begin_elf(f->elf, DWARF_C_READ, NULL)) || !has_units(f->dw)) {
		found_close(f);
		return false;
	}
	snprintf(f->path, sizeof(f->path), "%s", path);
	return true;
}

static const char *debug_dir(void)
{
	const char *d = getenv(FDR_DEBUG_DIR_ENV);

	return d && *d ? d : DEBUG_DIR_DEFAULT;
}

/* By build id: DEBUGDIR/.build-id/xx/yyyy.debug. */
static bool by_build_id(struct found *f, const unsigned char *id, ssize_t len)
{
	char path[PATH_MAX], *p = path;
	size_t room = sizeof(path);
	int n = snprintf(p, room, "%s/.build-id/", debug_dir());

	if (len < 2 || n < 0 || (size_t)n >= room)
		return false;
	for (ssize_t i = 0; i < len && (size_t)n + 8 < room; i++)
		n += snprintf(p + n, room - (size_t)n, i == 0 ? "%02x/" : "%02x", id[i]);
	if ((size_t)n + 8 >= room)
		return false;
	strcpy(p + n, ".debug");
	return try_debug(f, path, id, len);
}

/* By .gnu_debuglink: beside the file, in .debug/, under DEBUGDIR. */
static bool by_debuglink(struct found *f, const char *file, Elf *elf, const void *id,
			 ssize_t idlen)
{
	GElf_Word crc;
	const char *link = dwelf_elf_gnu_debuglink(elf, &crc);
	const char *slash = strrchr(file, '/');
	int dirlen = slash ? (int)(slash - file) : 0;
	char path[PATH_MAX];

	if (!link || strchr(link, '/'))
		return false;
	snprintf(path, sizeof(path), "%.*s/%s", dirlen, file, link);
	if (strcmp(path, file) && try_debug(f, path, id, idlen))
		return true;
	snprintf(path, sizeof(path), "%.*s/.debug/%s", dirlen, file, link);
	if (try_debug(f, path, id, idlen))
		return true;
	snprintf(path, sizeof(path), "%s%.*s/%s", debug_dir(), dirlen, file, link);
	return try_debug(f, path, id, idlen);
}

/* The DWARF of the object at path (open as elf), or false. */
static bool find_debug(struct found *f, const char *path, int fd, Elf *elf)
{
	const void *id = NULL;
	ssize_t idlen = dwelf_elf_gnu_build_id(elf, &id);
	Dwarf *dw = dwarf_begin(fd, DWARF_C_READ);

	if (dw && has_units(dw)) {
		*f = (struct found){ .fd = -1, .dw = dw };
		snprintf(f->path, sizeof(f->path), "%s", path);
		return true;
	}
	if (dw)
		dwarf_end(dw);
	return (idlen > 0 && by_build_id(f, id, idlen)) || by_debuglink(f, path, elf, id, idlen);
}

static int write_list(const char *dir, const struct stat *sb,
		      const struct found *f, struct entries *e)
{
	char path[PATH_MAX];
	FILE *out;

	if (snprintf(path, sizeof(path), "%s/" FDR_PATCH_DWARF_PREFIX "%ju.%ju.txt", dir,
		     (uintmax_t)sb->st_dev, (uintmax_t)sb->st_ino) >= (int)sizeof(path) ||
	    !(out = fopen(path, "w")))
		return -1;
	qsort(e->v, e->n, sizeof(*e->v), by_address);
	fprintf(out, "%s\nfile\t%jd\t%jd.%09ld\ndebug\t", FDR_PATCH_DWARF_MAGIC,
		(intmax_t)sb->st_size, (intmax_t)sb->st_mtim.tv_sec, sb->st_mtim.tv_nsec);
	for (const char *c = f->path; *c; c++)	/* one line, whatever the path */
		fputc((unsigned char)*c < 0x20 ? '?' : *c, out);
	fputc('\n', out);
	for (size_t i = 0; i < e->n; i++) {
		if (i && e->v[i].at == e->v[i - 1].at)
			continue;	/* an address once, the first name */
		if (strpbrk(e->v[i].name, "\n\t"))
			continue;	/* not one line: the symbol table names no such function */
		fprintf(out, "%jx\t%jx\t%s\n", (uintmax_t)e->v[i].at, (uintmax_t)e->v[i].size,
			e->v[i].name);
	}
	return fclose(out) ? -1 : 0;
}

/* One object: nothing when it has a .symtab or no debug info. */
static int one_object(const char *dir, const char *obj)
{
	struct entries e = { 0 };
	struct found f = { .fd = -1 };
	struct stat sb;
	int fd = open(obj, O_RDONLY | O_CLOEXEC), r = 0;
	Elf *elf = fd < 0 ? NULL : elf_begin(fd, ELF_C_READ_MMAP, NULL);

	if (elf && !has_symtab(elf) && !fstat(fd, &sb) && find_debug(&f, obj, fd, elf)) {
		r = collect(f.dw, &e);
		if (!r && e.n)
			r = write_list(dir, &sb, &f, &e);
		found_close(&f);
	}
	free(e.v);
	if (elf)
		elf_end(elf);
	if (fd >= 0)
		close(fd);
	if (r)
		fprintf(stderr, "fdr record: -P: %s: cannot write its DWARF function list into %s "
			"(%s); its static functions are not patched\n", obj, dir, strerror(errno));
	return r;
}

/* Does a -P PATTERN@MODULE name the library at path (patch_select.c's
 * rule), or, with path NULL, any library? */
static bool names_lib(const struct record_opts *o, const char *path)
{
	const char *base = !path ? NULL : strrchr(path, '/') ? strrchr(path, '/') + 1 : path;

	for (size_t i = 0; i < o->npatch; i++) {
		const char *at = strrchr(o->patch[i], '@');
		size_t len = at ? strlen(at + 1) : 0;

		if (at && (!base || (!strncmp(base, at + 1, len) &&
				    (base[len] == '\0' || base[len] == '.'))))
			return true;
	}
	return false;
}

void fdr__patch_dwarf(const struct record_opts *o, const struct prog *p, const char *dir)
{
	struct prog_libs libs = { 0 };

	if (!o->npatch || o->pid || p->script)
		return;
	elf_version(EV_CURRENT);
	one_object(dir, p->path);
	if (!names_lib(o, NULL) || fdr__prog_libs(p->path, &libs))
		return;
	for (size_t i = 0; i < libs.n; i++)
		if (names_lib(o, libs.path[i]))
			one_object(dir, libs.path[i]);
	fdr__prog_libs_free(&libs);
}
