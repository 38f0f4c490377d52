// SPDX-License-Identifier: MIT
/*
 * patch_libs.c - fdr record -P PATTERN@MODULE: the functions of the
 * program's shared libraries, patched as the executable's are
 * (patch_main.c): those loaded at start-up in the preload constructor,
 * one loaded later when dlopen() returns it (patch_dlopen.c).
 *
 * Never patched, every function a pattern selects in them counted as
 * "used by fdr's runtime":
 *  - libfdr-plt.so and the libraries it needs, followed through their
 *    DT_NEEDED (libc, capstone, the loader): every hook runs the
 *    recorder on them (clock_gettime, errno, the shadow stack's TLS, the
 *    patcher's capstone and mmap), so a patched one would enter the hook
 *    from inside the hook;
 *  - the dynamic loader (AT_BASE), whatever it is called: lazy binding,
 *    TLS set-up and dlopen() run in it, inside hooks too;
 *  - libgcc_s, the unwinder: a throw walks the frames above its own from
 *    their return addresses, which plt_unwind.c gives back before it
 *    starts; the unwinder's own functions, called after that, would have
 *    theirs replaced.
 * The vDSO has no file to read symbols from; it is left alone silently.
 */
#include <link.h>
#include <string.h>
#include <sys/auxv.h>

#include "fdr_env.h"
#include "patch_hook.h"

#define OBJS_MAX	512

static struct dl_phdr_info objs[OBJS_MAX];	/* at start-up, the executable first */
static bool runtime[OBJS_MAX];			/* fdr runs on objs[i] */
static unsigned nobjs;
static unsigned seq;				/* the coverage files' */

static int collect(struct dl_phdr_info *info, size_t size, void *arg)
{
	(void)size;
	(void)arg;
	if (nobjs == OBJS_MAX)
		return 1;
	objs[nobjs++] = *info;
	return 0;
}

static const char *base_of(const char *path)
{
	const char *slash = strrchr(path, '/');

	return slash ? slash + 1 : path;
}

static bool holds(const struct dl_phdr_info *o, uintptr_t addr)
{
	for (int i = 0; i < o->dlpi_phnum; i++) {
		const ElfW(Phdr) *ph = &o->dlpi_phdr[i];
		uintptr_t lo = o->dlpi_addr + ph->p_vaddr;

		if (ph->p_type == PT_LOAD && addr >= lo && addr - lo < ph->p_memsz)
			return true;
	}
	return false;
}

/* Does o's DT_NEEDED name the file base? */
static bool needs(const struct dl_phdr_info *o, const char *base)
{
	const ElfW(Dyn) *dyn = NULL, *d;
	const char *strtab = NULL;

	for (int i = 0; i < o->dlpi_phnum; i++)
		if (o->dlpi_phdr[i].p_type == PT_DYNAMIC)
			dyn = (const void *)(o->dlpi_addr + o->dlpi_phdr[i].p_vaddr);
	for (d = dyn; d && d->d_tag != DT_NULL; d++)	/* the loader relocated it */
		if (d->d_tag == DT_STRTAB)
			strtab = (const char *)(d->d_un.d_ptr < o->dlpi_addr ?
						d->d_un.d_ptr + o->dlpi_addr : d->d_un.d_ptr);
	for (d = dyn; strtab && d->d_tag != DT_NULL; d++)
		if (d->d_tag == DT_NEEDED && !strcmp(strtab + d->d_un.d_val, base))
			return true;
	return false;
}

/* libfdr-plt.so and what it needs, to a fixed point. */
static void mark_runtime(void)
{
	bool more = true;

	for (unsigned i = 1; i < nobjs; i++)
		runtime[i] = holds(&objs[i], (uintptr_t)fdr__patch_libs_start);
	while (more) {
		more = false;
		for (unsigned j = 1; j < nobjs; j++)
			for (unsigned i = 1; i < nobjs && !runtime[j]; i++)
				if (runtime[i] && needs(&objs[i], base_of(objs[j].dlpi_name)))
					runtime[j] = more = true;
	}
}

bool fdr__patch_lib_excluded(const struct dl_phdr_info *info)
{
	if (info->dlpi_addr == getauxval(AT_BASE) ||
	    !strncmp(base_of(info->dlpi_name), "libgcc_s.so", strlen("libgcc_s.so")))
		return true;
	for (unsigned i = 1; i < nobjs; i++)	/* loaded for good: libfdr-plt.so needs them */
		if (runtime[i] && objs[i].dlpi_addr == info->dlpi_addr)
			return true;
	return false;
}

uint32_t fdr__patch_lib(const struct dl_phdr_info *info, enum fdr_patch_why refuse,
			bool at_dlopen)
{
	const char *patterns = fdr__env(FDR_PATCH_ENV);

	if (!patterns || !info->dlpi_name || !info->dlpi_name[0] ||
	    info->dlpi_addr == getauxval(AT_SYSINFO_EHDR))
		return 0;	/* the executable (patch_main.c), the vDSO */
	if (fdr__patch_lib_excluded(info))
		refuse = FDR_PATCH_RUNTIME;
	return fdr__patch_object(patterns, &(struct fdr_patch_target){
		.info = info, .path = info->dlpi_name, .refuse = refuse,
		.seq = ++seq, .at_dlopen = at_dlopen });
}

bool fdr__patch_libs_wanted(void)
{
	const char *patterns = fdr__env(FDR_PATCH_ENV);

	return patterns && fdr__patch_select_has_module(patterns);
}

uint32_t fdr__patch_libs_start(void)
{
	enum fdr_patch_why refuse;
	uint32_t n = 0;

	if (!fdr__patch_libs_wanted())
		return 0;
	dl_iterate_phdr(collect, NULL);
	mark_runtime();
	refuse = fdr__patch_alone() ? FDR_PATCH_OK : FDR_PATCH_THREADS;
	for (unsigned i = 1; i < nobjs; i++)
		n += fdr__patch_lib(&objs[i], refuse, false);
	return n;
}
