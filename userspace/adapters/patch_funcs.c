// SPDX-License-Identifier: MIT
/*
 * patch_funcs.c - the function entries of one object for fdr record -P
 * (patch_funcs.h): the symbol table's, merged with the DWARF list fdr
 * record wrote for a file without .symtab.
 */
#include <elf.h>
#include <fcntl.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "elf_symtab.h"
#include "fdr_env.h"
#include "patch_funcs.h"
#include "sym_map.h"

struct dwarf_list {
	char *text;		/* mapped for good: the names live in it */
	size_t size;
	const char *debug;
	char *entries;		/* the first entry line */
};

/* The list's lines end in NUL from here on; false if the last one is cut. */
static bool split_lines(char *text, size_t size)
{
	if (!size || text[size - 1] != '\n')
		return false;
	for (size_t i = 0; i < size; i++)
		if (text[i] == '\n')
			text[i] = '\0';
	return true;
}

/* The next line after line, or NULL at the end of the text. */
static char *next_line(const struct dwarf_list *l, char *line)
{
	char *p = line + strlen(line) + 1;

	return p < l->text + l->size ? p : NULL;
}

/* The header: this list is about the file sb describes. */
static bool header_ok(struct dwarf_list *l, const struct stat *sb)
{
	char want[96];
	char *file, *debug;

	snprintf(want, sizeof(want), "file\t%jd\t%jd.%09ld", (intmax_t)sb->st_size,
		 (intmax_t)sb->st_mtim.tv_sec, sb->st_mtim.tv_nsec);
	if (strcmp(l->text, FDR_PATCH_DWARF_MAGIC) || !(file = next_line(l, l->text)) ||
	    strcmp(file, want) || !(debug = next_line(l, file)) || strncmp(debug, "debug\t", 6))
		return false;
	l->debug = debug + 6;
	l->entries = next_line(l, debug);
	return true;
}

/* $FDR_SYMDIR/fdr-dwarf.<dev>.<ino>.txt of the file sb describes, mapped. */
static bool map_list(struct dwarf_list *l, const struct stat *sb)
{
	const char *dir = fdr__env(FDR_SYMDIR_ENV);
	char path[PATH_MAX];
	struct stat ls;
	void *p;
	int fd;

	if (!dir || !*dir ||
	    snprintf(path, sizeof(path), "%s/" FDR_PATCH_DWARF_PREFIX "%ju.%ju.txt", dir,
		     (uintmax_t)sb->st_dev, (uintmax_t)sb->st_ino) >= (int)sizeof(path) ||
	    (fd = open(path, O_RDONLY | O_CLOEXEC)) < 0)
		return false;
	p = fstat(fd, &ls) || ls.st_size <= 0 ? MAP_FAILED :
		mmap(NULL, (size_t)ls.st_size, PROT_READ | PROT_WRITE, MAP_PRIVATE, fd, 0);
	close(fd);
	if (p == MAP_FAILED)
		return false;
	*l = (struct dwarf_list){ .text = p, .size = (size_t)ls.st_size };
	if (split_lines(l->text, l->size) && header_ok(l, sb))
		return true;
	munmap(p, l->size);
	return false;
}

/* "start<TAB>size<TAB>name": false if not so. */
static bool parse_entry(char *line, struct fdr_patch_fn *f)
{
	char *end;
	unsigned long long start, size;

	start = strtoull(line, &end, 16);
	if (end == line || *end != '\t')
		return false;
	line = end + 1;
	size = strtoull(line, &end, 16);
	if (end == line || *end != '\t' || !end[1] || !size || start + size < start)
		return false;
	*f = (struct fdr_patch_fn){ start, start + size, end + 1 };
	return true;
}

/* The list's entries, checked all first: in address order, well formed. */
static struct fdr_patch_fn *read_entries(const struct dwarf_list *l, size_t *n)
{
	struct fdr_patch_fn *v, f;
	size_t count = 0, i = 0;
	uint64_t last = 0;

	for (char *p = l->entries; p; p = next_line(l, p), count++)
		if (!parse_entry(p, &f) || f.start < last)
			return NULL;
		else
			last = f.start;
	if (!count || !(v = malloc(count * sizeof(*v))))
		return NULL;
	for (char *p = l->entries; p; p = next_line(l, p))
		parse_entry(p, &v[i++]);
	*n = count;
	return v;
}

/* The symbol table's entries and the DWARF's, by start, the table's
 * first at an equal start (its size, if it has one). */
static int merge(struct fdr_patch_funcs *fs, const struct fdr_elf_symtab *st,
		 const struct fdr_patch_fn *d, size_t nd)
{
	size_t ns = st ? st->nfuncs : 0, i = 0, j = 0;
	struct fdr_patch_fn s;

	if (!(fs->v = malloc((ns + nd) * sizeof(*fs->v))))
		return -1;
	while (i < ns || j < nd) {
		if (i < ns)
			s.name = fdr__elf_symtab_func(st, i, &s.start, &s.end);
		if (j < nd && (i == ns || d[j].start < s.start)) {
			fs->v[fs->n++] = d[j++];
			fs->ndwarf++;
			continue;
		}
		for (; j < nd && d[j].start == s.start; j++)
			if (s.end == s.start + 1)
				s.end = d[j].end;	/* a symbol without a size */
		fs->v[fs->n++] = s;
		i++;
	}
	return 0;
}

int fdr__patch_funcs_open(struct fdr_patch_funcs *fs, const char *path)
{
	struct fdr_elf_symtab st;
	struct fdr_patch_fn *d = NULL;
	struct dwarf_list l;
	struct stat sb;
	size_t nd = 0;
	bool have_st = fdr__elf_symtab_open(&st, path) == 0;
	int r;

	*fs = (struct fdr_patch_funcs){ 0 };
	if (have_st)
		fs->table = st.table == SHT_SYMTAB ? ".symtab" : ".dynsym";
	if ((!have_st || st.table != SHT_SYMTAB) && !stat(path, &sb) && map_list(&l, &sb)) {
		if ((d = read_entries(&l, &nd)))
			fs->debug = l.debug;
		else
			munmap(l.text, l.size);
	}
	if (!have_st && !d)
		return -1;
	r = merge(fs, have_st ? &st : NULL, d, nd);
	free(d);
	return r;
}

void fdr__patch_funcs_free(struct fdr_patch_funcs *fs)
{
	free(fs->v);
	fs->v = NULL;
	fs->n = 0;
}
