// SPDX-License-Identifier: MIT
/*
 * xray_objects.c - names for the functions of an XRay run: PROG's and
 * those of the shared libraries whose sleds the XRay mode patched
 * (userspace/adapters/xray_dso.h), kept in DIR so that DIR reads the
 * same on another machine, with the binaries absent (issue 37).
 *
 * Each recording process left DIR/fdr-xray-dso.<pid>.map, "<object id>
 * <TAB> <absolute path>" lines.  After every XRay run (or attach), while
 * PROG and the libraries are still where they were loaded from, this
 * writes one sym-map, DIR/fdr-syms.xray.map, with every function: PROG's
 * (object 0, numbered as XRay numbers them) and each library's
 * ((object << 24) | n, numbered the same way in its own map), each
 * object's build-id in a comment line.  An XRay program that PROG (or a
 * script given as PROG) exec()ed is such an object too
 * (adapters/xray_exec_id.h).  The reader names all of them
 * through its sym-map path.  Every line of the files is checked: a
 * process wrote them.
 */
#include <errno.h>
#include <glob.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "elf_info.h"
#include "fdr_xray_ids.h"
#include "record.h"
#include "symbols_internal.h"


struct objects {
	char *path[FDR_XRAY_DSO_MAX + 1];	/* by id; NULL: none */
	size_t n;
};

/* One "<id>\t<path>" line; a second path for an id is left out, said. */
static void take_line(struct objects *o, char *line, const char *file)
{
	char *tab = strchr(line, '\t'), *end;
	long id;

	line[strcspn(line, "\n")] = 0;
	if (line[0] == '#' || !tab)
		return;
	*tab = 0;
	id = strtol(line, &end, 10);
	if (*end || id < 1 || id > FDR_XRAY_DSO_MAX || tab[1] != '/')
		return;
	if (o->path[id] && strcmp(o->path[id], tab + 1)) {
		fprintf(stderr, "fdr record: warning: %s gives object %ld to %s, another "
			"process gave it to %s: its functions are named as the latter's\n",
			file, id, tab + 1, o->path[id]);
		return;
	}
	if (!o->path[id] && (o->path[id] = strdup(tab + 1)))
		o->n++;
}

static void read_objects(const char *dir, struct objects *o)
{
	char pat[PATH_MAX + 32], line[PATH_MAX + 32];
	glob_t g;

	snprintf(pat, sizeof(pat), "%s/fdr-xray-dso.*.map", dir);
	if (glob(pat, 0, NULL, &g))
		return;
	for (size_t i = 0; i < g.gl_pathc; i++) {
		FILE *f = fopen(g.gl_pathv[i], "re");

		while (f && fgets(line, sizeof(line), f))
			take_line(o, line, g.gl_pathv[i]);
		if (f)
			fclose(f);
	}
	globfree(&g);
}

/* name: '?' when unknown; tabs and newlines would break the line. */
static void put_symbol(FILE *f, int32_t fid, const struct symbol *s, const char *module)
{
	fprintf(f, "%d\t", fid);
	if (!s->name)
		fputc('?', f);
	for (const char *c = s->name; c && *c; c++)
		fputc((unsigned char)*c < 0x20 ? '?' : *c, f);
	fprintf(f, "\t%s\t0x%llx\n", module, (unsigned long long)s->address);
}

struct put_arg {
	FILE *f;
	const char *module;
	int32_t base;
};

static int put_elf_function(void *arg, int32_t fid, uint64_t addr, const char *name)
{
	const struct put_arg *a = arg;
	struct symbol sym = { fid, addr, (char *)name };

	if (fid < (1 << FDR_XRAY_DSO_SHIFT))
		put_symbol(a->f, a->base | fid, &sym, a->module);
	return 0;
}

/*
 * Names from the object's symbol table alone, as the static fdr of the
 * VM (no libdw) can read them; 0 or -errno.
 */
static int put_object_symtab(FILE *f, const char *path, int32_t base)
{
	struct put_arg a = { f, path, base };

	return fdr__elf_xray_functions(path, put_elf_function, &a);
}

/* The functions of one object's instrumentation map, after a comment
 * line with its build-id (what was named, for whoever reads DIR later):
 * DWARF names (libdw), else symbol-table names; a library that is gone
 * or changed is said, its functions stay #id. */
static void put_object(FILE *f, const char *path, int32_t base)
{
	struct fdr_elf_info elf;
	struct symbols *s;
	char msg[512];
	int r;

	if (!fdr__elf_info(path, &elf))
		fprintf(f, "# build-id\t%s\t%s\n", path, elf.build_id[0] ? elf.build_id : "-");
	if (symbols_from_instr_map(&s, path, msg, sizeof(msg))) {
		r = put_object_symtab(f, path, base);
		if (r)
			fprintf(stderr, "fdr record: warning: %s: %s; its functions are shown "
				"as #id\n", path, r == -ENOENT ? "no xray_instr_map" : strerror(-r));
		return;
	}
	for (size_t i = 0; i < s->n; i++)
		if (s->v[i].fid > 0 && s->v[i].fid < (1 << FDR_XRAY_DSO_SHIFT))
			put_symbol(f, base | s->v[i].fid, &s->v[i], path);
	symbols_free(s);
}

static bool is_xray(const struct prog *p)
{
	return !p->script && p->elf.instr == FDR_INSTR_XRAY;
}

static int write_map(const char *dir, const struct prog *p, const struct objects *o)
{
	char path[PATH_MAX + 32];
	FILE *f;
	int bad;

	snprintf(path, sizeof(path), "%s/fdr-syms.xray.map", dir);
	f = fopen(path, "we");
	if (!f)
		goto fail;
	fputs("# fdr sym-map 1: fid, symbol, module, link-time address\n"
	      "# XRay: the program (object 0), its shared libraries and the "
	      "programs it ran\n", f);
	if (is_xray(p))
		put_object(f, p->path, 0);
	for (int id = 1; id <= FDR_XRAY_DSO_MAX; id++)
		if (o->path[id])
			put_object(f, o->path[id], id << FDR_XRAY_DSO_SHIFT);
	bad = ferror(f);
	if (fclose(f) || bad)
		goto fail;
	return 0;
fail:
	fprintf(stderr, "fdr record: cannot write %s: %s\n", path, strerror(errno));
	return FDR_EXIT_FAILED;
}

int fdr__xray_objects_names(const char *dir, const struct prog *p)
{
	struct objects o = { 0 };
	int r = 0;

	/* a script or a --gcc PROG may run XRay programs: named if they left maps */
	read_objects(dir, &o);
	if (is_xray(p) || o.n)
		r = write_map(dir, p, &o);
	for (int id = 1; id <= FDR_XRAY_DSO_MAX; id++)
		free(o.path[id]);
	return r;
}

struct match_arg {
	const struct named_specs *named;
	struct arg_specs *out;
	int32_t base;
};

/* A function of the object whose symbol-table name has a spec: its id. */
static int match_function(void *arg, int32_t fid, uint64_t addr, const char *name)
{
	const struct match_arg *a = arg;
	const struct arg_spec *s = name ? fdr__named_specs_find(a->named, name) : NULL;

	(void)addr;
	if (!s || fid >= (1 << FDR_XRAY_DSO_SHIFT))
		return 0;
	return arg_specs_merge(a->out, a->base | fid, s) ? -ENOMEM : 0;
}

/*
 * The mode matched -A/-R's library functions by the symbol-table name at
 * each function of a library's map (adapters/xray_dso.c); the same walk
 * here gives the ids they got, for DIR/info.
 */
int fdr__xray_objects_args(const char *dir, const struct named_specs *named,
			   struct arg_specs *out)
{
	struct objects o = { 0 };
	int r = 0;

	if (!named->n)
		return 0;
	read_objects(dir, &o);
	for (int id = 1; id <= FDR_XRAY_DSO_MAX && !r; id++) {
		struct match_arg a = { named, out, id << FDR_XRAY_DSO_SHIFT };

		if (o.path[id] && fdr__elf_xray_functions(o.path[id], match_function, &a) == -ENOMEM) {
			fprintf(stderr, "fdr record: -A/-R: out of memory\n");
			r = FDR_EXIT_FAILED;
		}
	}
	for (int id = 1; id <= FDR_XRAY_DSO_MAX; id++)
		free(o.path[id]);
	return r;
}
