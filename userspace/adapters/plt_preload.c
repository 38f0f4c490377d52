// SPDX-License-Identifier: MIT
/*
 * plt_preload.c - libfdr-plt.so's start: attach to the region fdr record
 * names, hook the executable's library calls and patch the entries of
 * its own functions fdr record -P selects (patch_hook.h), name each one
 * in the sym-map (sym_map.h) by the name the executable imports it by
 * or its symbol.
 *
 * Every id is claimed here, before main and before any thread, so the
 * trampolines never take a lock.  A fork child writes the whole table
 * again under its own pid, as the -finstrument-functions hooks do.
 */
#include <pthread.h>
#include <stdlib.h>

#include "fdr.h"
#include "fid_assign.h"
#include "module_lookup.h"
#include "patch_hook.h"
#include "plt_hook.h"
#include "sym_map.h"

static void name_sym(const struct fdr_plt_sym *s)
{
	struct fdr_module *m = fdr__module_find(s->addr);
	uint64_t vaddr = m ? s->addr - m->bias : s->addr;

	fdr__sym_map_append((uint32_t)s->fid, s->name, m ? m->path : NULL, vaddr);
}

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

static void claim_ids(void)
{
	for (uint32_t i = 0; i < fdr__plt_nsyms; i++) {
		struct fdr_plt_sym *s = &fdr__plt_syms[i];
		struct fdr_module *m = fdr__module_find(s->addr);

		s->fid = (int32_t)fdr__fid_claim(m, id_key(m, s));
		if (s->fid)
			name_sym(s);
	}
}

static void rewrite_map_in_child(void)
{
	fdr__sym_map_forget();
	for (uint32_t i = 0; i < fdr__plt_nsyms; i++)
		if (fdr__plt_syms[i].fid)
			name_sym(&fdr__plt_syms[i]);
}

__attribute__((constructor)) static void plt_start(void)
{
	uint32_t unbound, hooked = 0;

	if (fdr__plt_exe_records_itself())
		return;		/* an exec'ed fdr-cc build: its libfdr records */
	if (fdr_attach(NULL) < 0)
		return;		/* fdr_attach said why; the program runs as is */
	if (!fdr__patch_no_libcall())
		hooked = fdr__plt_hook_main(&unbound);
	if (!fdr__patch_main() && !hooked)
		return;
	claim_ids();
	pthread_atfork(NULL, NULL, rewrite_map_in_child);
}
