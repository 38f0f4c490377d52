// SPDX-License-Identifier: MIT
/*
 * plt_nest.c - fdr record --nest-libcall: the calls between libraries
 * too (uftrace's -l): the GOTs of the loaded shared libraries are hooked
 * as the executable's is (plt_got.c), at start-up and after each
 * dlopen(); a library dlclose()d is forgotten.
 *
 * Left alone, as uftrace leaves them:
 * - fdr's own object (libfdr-plt.so; in an fdr-cc build the executable,
 *   hooked already) and the libraries it links (libcapstone): the
 *   recorder's own calls are not the program's;
 * - the loader and the vDSO: they bind symbols and serve the hooks;
 * - libc and the system libraries the recorder and the unwinder run on
 *   (libm, libpthread, libdl, librt, libgcc_s): their internal calls are
 *   not the program's, and libc's would be the recorder's own (a buffer's
 *   mmap, the sym-map's writes); libgcc_s is the unwinder that a throw
 *   runs with the return addresses given back (plt_unwind.c).
 * Calls the recorder still makes through a hooked GOT (a malloc that a
 * hooked library interposes, called from the recorder's general path)
 * pass unrecorded: the hooks see the thread busy (plt_shadow.c).
 *
 * A hooked library's entries are known by their range of fdr__plt_syms
 * indices; the table of hooked libraries is kept under one lock (the
 * callers hold their dlopen() lock too).
 */
#include <dlfcn.h>
#include <fnmatch.h>
#include <link.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "fdr_env.h"
#include "plt_hook.h"

#define HOOKED_MAX	1024

struct hooked {
	uintptr_t addr;			/* dlpi_addr */
	const void *phdr;		/* dlpi_phdr: with addr, the object */
	uint32_t first, end;		/* its fdr__plt_syms entries */
};

static struct hooked hooked[HOOKED_MAX];
static unsigned nhooked;
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;

static const char *const system_libs[] = {
	"ld-linux*", "ld64.so*", "linux-vdso.so*", "linux-gate.so*",
	"libc.so*", "libc-2.*", "libm.so*", "libm-2.*", "libmvec.so*",
	"libpthread.so*", "libpthread-2.*", "libdl.so*", "libdl-2.*",
	"librt.so*", "librt-2.*", "libgcc_s.so*",
};

bool fdr__plt_nest_wanted(void)
{
	const char *v = fdr__env(FDR_LIBCALL_ENV);

	return v && !strcmp(v, "nest");
}

static const char *base_name(const char *path)
{
	const char *slash = strrchr(path, '/');

	return slash ? slash + 1 : path;
}

/*
 * fdr's own object (the one holding this code), null in an fdr-cc build
 * (the executable: its own libraries).  Found before dl_iterate_phdr(),
 * never inside its callback: that runs under the loader's
 * dl_load_write_lock, and dladdr() takes dl_load_lock, which a dlopen()
 * in another thread holds while it waits for the write lock (deadlock).
 * The object is never unloaded: found once, under the lock.
 */
static struct link_map *own_map;
static bool own_looked;

static void find_own_map(void)
{
	struct link_map *lm = NULL;
	Dl_info di;

	if (own_looked)
		return;
	own_looked = true;
	if (dladdr1((void *)fdr__plt_entry, &di, (void **)&lm, RTLD_DL_LINKMAP) && lm &&
	    lm->l_name[0])
		own_map = lm;
}

/* Does fdr's own object link name?  (In the callback: no loader call.) */
static bool fdr_needs(const char *name)
{
	const ElfW(Dyn) *d;
	const char *strtab = NULL;

	if (!own_map)
		return false;
	for (d = own_map->l_ld; d->d_tag != DT_NULL; d++)
		if (d->d_tag == DT_STRTAB)
			strtab = (const char *)d->d_un.d_ptr;
	for (d = own_map->l_ld; strtab && d->d_tag != DT_NULL; d++)
		if (d->d_tag == DT_NEEDED && !strcmp(strtab + d->d_un.d_val, name))
			return true;
	return false;
}

static bool is_fdr(const struct dl_phdr_info *info)
{
	uintptr_t at = (uintptr_t)fdr__plt_entry;

	for (int i = 0; i < info->dlpi_phnum; i++) {
		const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
		uintptr_t lo = info->dlpi_addr + ph->p_vaddr;

		if (ph->p_type == PT_LOAD && at >= lo && at - lo < ph->p_memsz)
			return true;
	}
	return false;
}

static bool wanted(const struct dl_phdr_info *info)
{
	const char *name = info->dlpi_name ? base_name(info->dlpi_name) : "";

	if (!name[0] || is_fdr(info) || fdr_needs(name))
		return false;
	for (size_t i = 0; i < sizeof(system_libs) / sizeof(system_libs[0]); i++)
		if (!fnmatch(system_libs[i], name, 0))
			return false;
	return true;
}

static bool is_hooked(const struct dl_phdr_info *info)
{
	for (unsigned i = 0; i < nhooked; i++)
		if (hooked[i].addr == info->dlpi_addr && hooked[i].phdr == info->dlpi_phdr)
			return true;
	return false;
}

struct fdr_plt_settled {
	unsigned n;
	struct {
		uintptr_t addr;
		const void *phdr;
	} v[HOOKED_MAX];
};

static int list_loaded(struct dl_phdr_info *info, size_t size, void *arg)
{
	struct fdr_plt_settled *s = arg;

	(void)size;
	if (s->n < HOOKED_MAX) {
		s->v[s->n].addr = info->dlpi_addr;
		s->v[s->n].phdr = info->dlpi_phdr;
		s->n++;
	}
	return 0;
}

/*
 * dl_iterate_phdr() also lists an object that another thread's dlopen()
 * has mapped and is still relocating: hooked then, its GOT's pages are
 * made read-only under the loader's writes (SIGSEGV in
 * elf_machine_rela_relative), or a slot is read before the loader wrote
 * it.  So a pass takes the list first, then waits every load under way
 * out (plt_self.c), then hooks only what the list has: those objects
 * are whole.  One loaded later is hooked by its own loader's pass,
 * after its dlopen() returns.
 */
struct fdr_plt_settled *fdr__plt_nest_list(void)
{
	struct fdr_plt_settled *s;

	fdr__plt_busy_enter();
	s = malloc(sizeof(*s));
	if (s) {
		s->n = 0;
		dl_iterate_phdr(list_loaded, s);
	}
	fdr__plt_busy_leave();
	return s;
}

static bool settled(const struct fdr_plt_settled *s, const struct dl_phdr_info *info)
{
	for (unsigned i = 0; s && i < s->n; i++)
		if (s->v[i].addr == info->dlpi_addr && s->v[i].phdr == info->dlpi_phdr)
			return true;
	return !s;
}

struct hook_pass {
	uint32_t n;
	const struct fdr_plt_settled *only;
};

static int hook_new(struct dl_phdr_info *info, size_t size, void *arg)
{
	struct hook_pass *pass = arg;
	uint32_t unbound, first = fdr__plt_nsyms;

	(void)size;
	if (!info->dlpi_name || !info->dlpi_name[0] || is_hooked(info) || !wanted(info) ||
	    !settled(pass->only, info) || nhooked == HOOKED_MAX)
		return 0;	/* the executable (listed first, unnamed) too */
	pass->n += fdr__plt_hook_object(info, &unbound);
	hooked[nhooked++] = (struct hooked){ info->dlpi_addr, info->dlpi_phdr, first,
					     fdr__plt_nsyms };
	return 0;
}

static int still_loaded(struct dl_phdr_info *info, size_t size, void *arg)
{
	const struct hooked *h = arg;

	(void)size;
	return info->dlpi_addr == h->addr && info->dlpi_phdr == h->phdr;
}

/* Under the lock: a library unloaded (and maybe another loaded at its
 * address since) is no longer hooked; its entries are never named again. */
static void forget_gone(void)
{
	for (unsigned i = 0; i < nhooked;) {
		if (dl_iterate_phdr(still_loaded, &hooked[i])) {
			i++;
			continue;
		}
		for (uint32_t k = hooked[i].first; k < hooked[i].end; k++)
			__atomic_store_n(&fdr__plt_syms[k].fid, 0, __ATOMIC_RELAXED);
		hooked[i] = hooked[--nhooked];
	}
}

/*
 * The pass after a dlopen() that no lock was held across: list what is
 * loaded (under the caller's lock), wait every load under way out
 * (dladdr() takes the loader's dl_load_lock, which dlopen() holds to its
 * end; not under the caller's lock: a library's constructor, run under
 * dl_load_lock, may dlopen()), then hook only the listed objects and
 * hand the new entries (from the first, under the caller's lock) to
 * done.  Returns how many slots were hooked.
 */
uint32_t fdr__plt_nest_pass(pthread_mutex_t *caller_lock, void (*done)(uint32_t first))
{
	struct fdr_plt_settled *settled;
	uint32_t from, n = 0;
	Dl_info di;

	pthread_mutex_lock(caller_lock);
	settled = fdr__plt_nest_list();
	pthread_mutex_unlock(caller_lock);
	if (!settled)
		return 0;
	fdr__plt_busy_enter();
	dladdr((void *)fdr__plt_nest_pass, &di);
	fdr__plt_busy_leave();
	pthread_mutex_lock(caller_lock);
	from = fdr__plt_nsyms;
	n = fdr__plt_nest_hook_new(settled);
	if (n)
		done(from);
	pthread_mutex_unlock(caller_lock);
	free(settled);
	return n;
}

void fdr__plt_nest_forget_gone(void)
{
	fdr__plt_busy_enter();
	pthread_mutex_lock(&lock);
	forget_gone();
	pthread_mutex_unlock(&lock);
	fdr__plt_busy_leave();
}

uint32_t fdr__plt_nest_hook_new(const struct fdr_plt_settled *only)
{
	struct hook_pass pass = { 0, only };

	fdr__plt_busy_enter();
	pthread_mutex_lock(&lock);
	forget_gone();
	find_own_map();
	dl_iterate_phdr(hook_new, &pass);
	pthread_mutex_unlock(&lock);
	fdr__plt_busy_leave();
	return pass.n;
}
