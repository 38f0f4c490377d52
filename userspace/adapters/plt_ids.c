// SPDX-License-Identifier: MIT
/*
 * plt_ids.c - the ids and names of hooked library functions (plt_hook.h):
 * claimed once, before the hooks run (at start-up, and under
 * patch_dlopen.c's lock), named in the process's sym-map (sym_map.h) by
 * the name the executable imports or the symbol.  A fork child writes
 * the whole table again under its own pid, as the -finstrument-functions
 * hooks do.  Shared by libfdr-plt.so and the runtime of fdr-cc builds
 * (plt_self.c).
 */
#include <stdlib.h>
#include <string.h>

#include "fid_assign.h"
#include "module_lookup.h"
#include "plt_hook.h"
#include "sym_map.h"

uint32_t fdr__plt_id_must;

/*
 * The id's key: the function's link-time address and the imported name,
 * so that two names bound to one function (memcpy and memmove share an
 * ifunc's choice) are counted apart, and a run's ids are the next's.
 */
static uint64_t id_key(const struct fdr_module *m, const struct fdr_plt_sym *s)
{
	uint64_t h = 0xcbf29ce484222325ull;

	for (const char *p = s->name; *p; p++)
		h = (h ^ (unsigned char)*p) * 0x100000001b3ull;
	return (m ? s->addr - m->bias : s->addr) ^ (h << 40);
}

/*
 * The module a function's id is claimed in: the first loaded from the
 * same file, so that a library dlclose()d and dlopen()ed again at
 * another address keeps its functions' ids (patch_dlopen.c).
 */
static struct fdr_module *id_module(struct fdr_module *m)
{
	struct fdr_module *first;

	for (uint32_t i = 0; m && i < m->index; i++)
		if ((first = fdr__module_at(i)) && !strcmp(first->path, m->path))
			return first;
	return m;
}

static int by_address(const void *a, const void *b)
{
	uintptr_t x = *(const uintptr_t *)a, y = *(const uintptr_t *)b;

	return (x > y) - (x < y);
}

/*
 * The library calls of the executable to a function -P patched in its
 * library (PATTERN@MODULE): the patch records the call, the GOT hook
 * would record it a second time, nested; its stub goes straight on.
 */
static bool *patched_targets(void)
{
	uintptr_t *at = malloc((fdr__plt_nsyms + 1) * sizeof(*at));
	bool *skip = calloc(fdr__plt_nsyms + 1, sizeof(*skip));
	size_t n = 0;

	for (uint32_t i = 0; at && i < fdr__plt_nsyms; i++)
		if (fdr__plt_syms[i].keeps_all)
			at[n++] = fdr__plt_syms[i].addr;
	qsort(at, n, sizeof(*at), by_address);
	for (uint32_t i = 0; at && skip && i < fdr__plt_nsyms; i++)
		skip[i] = !fdr__plt_syms[i].keeps_all &&
			  bsearch(&fdr__plt_syms[i].target, at, n, sizeof(*at), by_address);
	free(at);
	return skip;
}

void fdr__plt_claim_ids(uint32_t from)
{
	bool *skip = patched_targets();
	uint32_t must = fdr__plt_id_must;

	for (uint32_t i = from; i < fdr__plt_nsyms; i++) {
		struct fdr_plt_sym *s = &fdr__plt_syms[i];
		struct fdr_module *m;

		if (skip && skip[i])
			continue;
		m = fdr__module_find(s->addr);
		s->module = m ? m->index + 1 : 0;
		s->fid = (int32_t)fdr__fid_claim_call(id_module(m), id_key(m, s), must);
		if (s->fid)
			fdr__plt_sym_name(s);
	}
	free(skip);
}

void fdr__plt_name_all(void)
{
	for (uint32_t i = 0; i < fdr__plt_nsyms; i++)
		if (fdr__plt_syms[i].fid)
			fdr__plt_sym_name(&fdr__plt_syms[i]);
}

void fdr__plt_rename_in_child(void)
{
	fdr__sym_map_forget();
	fdr__plt_name_all();
}
