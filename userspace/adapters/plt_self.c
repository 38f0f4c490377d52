// SPDX-License-Identifier: MIT
/*
 * plt_self.c - library calls of a program built with fdr-cc (XRay or
 * --gcc): the program's own libfdr, linked in statically, hooks the
 * executable's GOT with the code libfdr-plt.so uses (plt_got.c,
 * plt_shadow.c, plt_tramp_x86_64.S, plt_ids.c), when fdr record asks
 * for it ($FDR_LIBCALL); with nobody recording nothing happens.
 * (Documentation/integrations.md, "Library calls".)
 *
 * One runtime per process: no second libfdr (as a preloaded
 * libfdr-plt.so would be) giving each thread two buffers.  fdr's own code
 * shares the executable's GOT with the program: its calls into libc
 * (the sym-map's writes, a buffer's mmap, the dlopen wrapper's patching)
 * go through the same entries.  They are told apart by the caller's
 * return address: the adapters' archives put all of fdr's code, libfdr's
 * included, in one section, fdr_text (the Makefile renames .text), whose
 * bounds the linker gives as __start_fdr_text and __stop_fdr_text.
 */
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fdr_env.h"
#include "module_lookup.h"
#include "plt_hook.h"

extern const char __start_fdr_text[] __attribute__((weak, visibility("hidden")));
extern const char __stop_fdr_text[] __attribute__((weak, visibility("hidden")));

/*
 * A call into a library built with fdr-cc is recorded there (its sleds,
 * its hooks): its stub goes straight on, as libfdr-plt.so's does for a
 * function -P patched.
 */
static void leave_recorded_libs(uint32_t from)
{
	static signed char records[FDR_MODULES_MAX];	/* 0 unknown, 1 yes, -1 no */

	for (uint32_t i = from; i < fdr__plt_nsyms; i++) {
		struct fdr_module *m = fdr__module_find(fdr__plt_syms[i].addr);

		if (!m || m->is_main || m->index >= FDR_MODULES_MAX)
			continue;
		if (!records[m->index])
			records[m->index] = fdr__plt_lib_records_itself(m->path) ? 1 : -1;
		if (records[m->index] > 0)
			fdr__plt_syms[i].fid = 0;
	}
}

static bool started, nest;
/* Held around each hooking pass and each forgetting one (plt_nest.c's
 * lock is taken only under it), and across a fork, so that a child
 * never inherits either lock held by a thread it does not have. */
static pthread_mutex_t dl_lock = PTHREAD_MUTEX_INITIALIZER;

static void dl_lock_take(void)
{
	pthread_mutex_lock(&dl_lock);
}

static void dl_lock_drop(void)
{
	pthread_mutex_unlock(&dl_lock);
}

/* dl_lib.h's, dl_lib.c: in a dynamic fdr-cc link only (--wrap=dlopen,dlclose and
 * --undefined=fdr__dl_lib_dlopen); null in a static one, which loads no
 * library, and in a link by hand without those flags. */
void *fdr__dl_lib_dlopen(const char *file, int mode) __attribute__((weak, visibility("hidden")));
int fdr__dl_lib_dlclose(void *handle) __attribute__((weak, visibility("hidden")));

/* --nest-libcall: the libraries' own dlopen() and dlclose() go through
 * dl_lib.c too, so that what a library loads is hooked before its
 * dlopen() returns (--wrap reaches the executable's calls only). */
static void route_libraries_dl(void)
{
	if (fdr__dl_lib_dlopen && fdr__dl_lib_dlclose)
		fdr__plt_route_dl((uintptr_t)fdr__dl_lib_dlopen, (uintptr_t)fdr__dl_lib_dlclose);
}

void fdr__plt_self_start(uint32_t must, bool child_map_new)
{
	const char *v = fdr__env(FDR_LIBCALL_ENV);
	uintptr_t lo = (uintptr_t)__start_fdr_text, hi = (uintptr_t)__stop_fdr_text;
	uint32_t unbound, hooked;

	if (started || !v || (strcmp(v, "1") && strcmp(v, "nest")))
		return;
	started = true;
	if (!lo || hi <= lo) {
		fprintf(stderr, "fdr: note: library calls are not recorded: fdr's runtime "
			"was linked without its fdr_text section (link with fdr-cc and "
			"the archives of the same build)\n");
		return;
	}
	fdr__plt_own_lo = lo;
	fdr__plt_own_len = hi - lo;
	fdr__plt_shadow_init();
	nest = !strcmp(v, "nest");
	if (nest)
		pthread_atfork(dl_lock_take, dl_lock_drop, dl_lock_drop);
	hooked = fdr__plt_hook_main(&unbound);
	if (nest) {
		route_libraries_dl();
		hooked += fdr__plt_nest_hook_new(NULL);	/* before any thread */
	}
	if (!hooked && !nest)
		return;
	fdr__plt_id_must = must;
	fdr__plt_claim_ids(0);
	leave_recorded_libs(0);
	pthread_atfork(NULL, NULL, child_map_new ? fdr__plt_name_all : fdr__plt_rename_in_child);
}

/*
 * --nest-libcall: dlopen() and dlclose() (dl_lib.c: the program's
 * through --wrap, the libraries' through their routed GOT entries) hook
 * the GOTs of the libraries loaded, and forget those unloaded
 * (plt_nest.c).
 */
static void claim_new(uint32_t first)
{
	fdr__plt_claim_ids(first);
	leave_recorded_libs(first);
}

void fdr__plt_self_dlopen(void)
{
	if (nest)
		fdr__plt_nest_pass(&dl_lock, claim_new);
}

void fdr__plt_self_dlclose(void)
{
	if (!nest)
		return;
	pthread_mutex_lock(&dl_lock);
	fdr__plt_nest_forget_gone();
	pthread_mutex_unlock(&dl_lock);
}
