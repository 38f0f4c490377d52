// SPDX-License-Identifier: MIT
/*
 * plt_preload.c - libfdr-plt.so's start: attach to the region fdr record
 * names, hook the executable's library calls and patch the entries of
 * its own functions fdr record -P selects (patch_hook.h), name each one
 * in the sym-map (sym_map.h) by the name the executable imports it by
 * or its symbol.  With --nest-libcall, the libraries' GOTs too
 * (plt_nest.c).
 *
 * Every id is claimed here (plt_ids.c), before main and before any
 * thread, so the trampolines never take a lock.
 */
#include <pthread.h>

#include "fdr.h"
#include "patch_hook.h"
#include "plt_hook.h"
#include "sym_map.h"

__attribute__((constructor)) static void plt_start(void)
{
	uint32_t unbound, hooked = 0, patched;
	bool nest;

	if (fdr__plt_exe_records_itself())
		return;		/* an exec'ed fdr-cc build: its libfdr records */
	if (fdr_attach(NULL) < 0)
		return;		/* fdr_attach said why; the program runs as is */
	fdr__plt_shadow_init();
	nest = !fdr__patch_no_libcall() && fdr__plt_nest_wanted();
	fdr__plt_busy_enter();	/* capstone's calls, the sym-map's: fdr's own */
	if (!fdr__patch_no_libcall()) {
		hooked = fdr__plt_hook_main(&unbound);
		if (nest)
			hooked += fdr__plt_nest_hook_new(NULL);
	}
	patched = fdr__patch_main();
	patched += fdr__patch_libs_start();
	fdr__plt_busy_leave();
	if (!patched && !hooked && !nest && !fdr__patch_libs_wanted())
		return;
	fdr__plt_claim_ids(0);
	pthread_atfork(NULL, NULL, fdr__plt_rename_in_child);
	fdr__patch_dlopen_arm();
}
