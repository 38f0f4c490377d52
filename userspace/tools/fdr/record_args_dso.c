// SPDX-License-Identifier: MIT
/*
 * record_args_dso.c - -A/-R/-a on the functions of shared libraries built
 * by fdr-cc.  Their ids are given as the program loads them
 * (userspace/adapters/xray_dso.h), so the specs go to the XRay mode by
 * symbol-table name ($FDR_XRAY_ARGS "=NAME:..." entries, xray_args.h);
 * after the run xray_objects.c gives DIR/info the ids they got.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "elf_info.h"
#include "record.h"
#include "symbols_internal.h"

const struct arg_spec *fdr__named_specs_find(const struct named_specs *all, const char *name)
{
	for (size_t i = 0; i < all->n; i++)
		if (!strcmp(all->name[i], name))
			return &all->spec[i];
	return NULL;
}

/* A new entry with an empty spec, or NULL when out of memory. */
static struct arg_spec *add_name(struct named_specs *all, const char *name)
{
	char **names = realloc(all->name, (all->n + 1) * sizeof(*names));
	struct arg_spec *specs;

	if (!names)
		return NULL;
	all->name = names;
	specs = realloc(all->spec, (all->n + 1) * sizeof(*specs));
	if (!specs)
		return NULL;
	all->spec = specs;
	if (!(all->name[all->n] = strdup(name)))
		return NULL;
	memset(&all->spec[all->n], 0, sizeof(all->spec[0]));
	return &all->spec[all->n++];
}

int fdr__named_specs_merge(struct named_specs *all, const char *name, const struct arg_spec *s)
{
	struct arg_spec *t = (struct arg_spec *)fdr__named_specs_find(all, name);

	if (!t && !(t = add_name(all, name)))
		return -1;
	if (t->n + s->n > FDR_ENTER_ARGS_MAX)
		return -1;
	memcpy(&t->arg[t->n], s->arg, s->n * sizeof(s->arg[0]));
	t->n += s->n;
	if (s->has_ret) {
		t->has_ret = true;
		t->ret = s->ret;
	}
	return 0;
}

void fdr__named_specs_free(struct named_specs *all)
{
	for (size_t i = 0; i < all->n; i++)
		free(all->name[i]);
	free(all->name);
	free(all->spec);
	memset(all, 0, sizeof(*all));
}

/* The address of fid in s, or 0. */
static uint64_t address_of(const struct symbols *s, int32_t fid)
{
	for (size_t k = 0; k < s->n; k++)
		if (s->v[k].fid == fid)
			return s->v[k].address;
	return 0;
}

/* -a on one library: DWARF's spec of each function no -A/-R named. */
static int auto_one(const char *path, struct named_specs *named)
{
	struct arg_specs found = { 0 };
	struct symbols *s;
	char msg[512], raw[1024];
	int r = 0;

	if (symbols_from_instr_map(&s, path, msg, sizeof(msg)))
		return 0;	/* not built with XRay */
	if (fdr__auto_args_path(path, s, &found, true))
		goto out;	/* no DWARF: its functions keep no values */
	for (size_t i = 0; i < found.n && !r; i++) {
		uint64_t addr = address_of(s, found.fid[i]);

		if (!addr || fdr__elf_function_name(path, addr, raw, sizeof(raw)) ||
		    strpbrk(raw, ":;") || fdr__named_specs_find(named, raw))
			continue;
		if (fdr__named_specs_merge(named, raw, &found.spec[i])) {
			fprintf(stderr, "fdr record: -a: out of memory\n");
			r = FDR_EXIT_FAILED;
		}
	}
out:
	arg_specs_free(&found);
	symbols_free(s);
	return r;
}

int fdr__auto_args_libs(const struct prog *p, struct named_specs *named)
{
	struct prog_libs libs = { 0 };
	int r = 0;

	if (!p->elf.dynamic)
		return 0;
	fdr__prog_libs(p->path, &libs);
	for (size_t i = 0; i < libs.n && !r; i++)
		r = auto_one(libs.path[i], named);
	fdr__prog_libs_free(&libs);
	return r;
}
