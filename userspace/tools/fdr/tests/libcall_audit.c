// SPDX-License-Identifier: MIT
/*
 * libcall_audit.c - the independent count libcall_test.sh checks fdr's
 * library calls against: an rtld-audit module (LD_AUDIT, rtld-audit(7))
 * that counts, per symbol name, every call the executable makes through
 * its PLT (la_x86_64_gnu_pltenter), and writes "name count" lines to
 * $LIBCALL_AUDIT_OUT.<pid> when the executable is unloaded.  Counts are
 * kept per calling pid, and a process writes all it holds but its
 * parent's: a fork child inherits (and must not repeat) the counts of
 * the parent, while a vfork child's calls (execl) land in the parent's
 * memory and only the parent can write them.  The test adds all files.  It shares no code
 * with libfdr-plt.so: the loader, not a GOT rewrite, sees the calls.
 * Needs lazy binding (la_pltenter is not called for -z now programs).
 *
 * $LIBCALL_AUDIT_NEST=1 (fdr record --nest-libcall): the calls through
 * the PLTs of the libraries too, but for those fdr leaves alone by design
 * (the loader, libc and the system libraries: plt_nest.c's list, written
 * again here), also in libraries dlopen()ed later.
 *
 * $LIBCALL_AUDIT_SKIP, "LO-HI,LO-HI,..." (hex link-time addresses of the
 * executable): leave out the calls made from those ranges (in an fdr-cc
 * build, fdr's runtime and XRay's, which share the executable's PLT).
 */
#define _GNU_SOURCE
#include <fnmatch.h>
#include <link.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define MAX_NAMES 4096

static uintptr_t *main_cookie;
static int nest = -1;		/* $LIBCALL_AUDIT_NEST, read at the first object */
#define COUNTED	((uintptr_t)1)	/* *cookie of a library whose calls count */

static const char *const system_libs[] = {
	"ld-linux*", "ld64.so*", "linux-vdso.so*", "linux-gate.so*",
	"libc.so*", "libc-2.*", "libm.so*", "libm-2.*", "libmvec.so*",
	"libpthread.so*", "libpthread-2.*", "libdl.so*", "libdl-2.*",
	"librt.so*", "librt-2.*", "libgcc_s.so*",
};

static int counted_lib(const char *path)
{
	const char *base = strrchr(path, '/');

	base = base ? base + 1 : path;
	if (!nest || !base[0])
		return 0;
	for (size_t i = 0; i < sizeof(system_libs) / sizeof(system_libs[0]); i++)
		if (!fnmatch(system_libs[i], base, 0))
			return 0;
	return 1;
}
static uintptr_t main_bias;
static struct { uintptr_t lo, hi; } skip[4096];
static int nskip;

static void read_from(void)
{
	const char *v = getenv("LIBCALL_AUDIT_SKIP");
	char *end;

	for (; v && *v && nskip < 4096; nskip++) {
		skip[nskip].lo = strtoul(v, &end, 16) + main_bias;
		skip[nskip].hi = strtoul(end + 1, &end, 16) + main_bias;
		v = *end ? end + 1 : end;
	}
}

static int counted(uintptr_t ret)
{
	static int read;

	if (!read) {	/* the first call: the main thread's, environ set */
		read = 1;
		read_from();
	}
	for (int i = 0; i < nskip; i++)
		if (ret >= skip[i].lo && ret < skip[i].hi)
			return 0;
	return 1;
}
static struct { const char *name; pid_t pid; unsigned long n; int ready; } counts[MAX_NAMES];
static int nnames;

unsigned la_version(unsigned v)
{
	return v < LAV_CURRENT ? v : LAV_CURRENT;
}

unsigned la_objopen(struct link_map *map, Lmid_t lmid, uintptr_t *cookie)
{
	(void)lmid;
	if (nest < 0) {
		const char *v = getenv("LIBCALL_AUDIT_NEST");

		nest = v && !strcmp(v, "1");
	}
	if (!main_cookie && map->l_name[0] == 0) {
		main_cookie = cookie;	/* the executable comes first, unnamed */
		main_bias = map->l_addr;
	} else {
		*cookie = counted_lib(map->l_name) ? COUNTED : 0;
	}
	return LA_FLG_BINDTO | LA_FLG_BINDFROM;
}

uintptr_t la_symbind64(Elf64_Sym *sym, unsigned ndx, uintptr_t *refcook,
		       uintptr_t *defcook, unsigned *flags, const char *name)
{
	(void)ndx; (void)defcook; (void)name;
	if (refcook != main_cookie && *refcook != COUNTED)
		*flags |= LA_SYMB_NOPLTENTER | LA_SYMB_NOPLTEXIT;
	return sym->st_value;
}

/* Lock-free (a signal handler or a fork child may count while another
 * call is counting): a new name takes a slot of its own; two threads
 * adding one name at once make two slots, which the test adds up. */
static void count(const char *name)
{
	pid_t pid = getpid();
	int i, n = __atomic_load_n(&nnames, __ATOMIC_ACQUIRE);

	for (i = 0; i < n && i < MAX_NAMES; i++)
		if (__atomic_load_n(&counts[i].ready, __ATOMIC_ACQUIRE) && counts[i].pid == pid &&
		    !strcmp(counts[i].name, name)) {
			__atomic_add_fetch(&counts[i].n, 1, __ATOMIC_RELAXED);
			return;
		}
	i = __atomic_fetch_add(&nnames, 1, __ATOMIC_ACQ_REL);
	if (i >= MAX_NAMES)
		return;
	counts[i].name = name;
	counts[i].pid = pid;
	counts[i].n = 1;
	__atomic_store_n(&counts[i].ready, 1, __ATOMIC_RELEASE);
}

Elf64_Addr la_x86_64_gnu_pltenter(Elf64_Sym *sym, unsigned ndx, uintptr_t *refcook,
				  uintptr_t *defcook, La_x86_64_regs *regs, unsigned *flags,
				  const char *name, long *framesizep)
{
	(void)ndx; (void)defcook; (void)flags; (void)framesizep;
	if (refcook != main_cookie || counted(*(uintptr_t *)regs->lr_rsp))
		count(name);
	return sym->st_value;
}

unsigned la_objclose(uintptr_t *cookie)
{
	const char *out = getenv("LIBCALL_AUDIT_OUT");
	char path[4096];
	FILE *f;

	if (cookie != main_cookie || !out)
		return 0;
	snprintf(path, sizeof(path), "%s.%d", out, (int)getpid());
	if (!(f = fopen(path, "w")))
		return 0;
	for (int i = 0; i < nnames && i < MAX_NAMES; i++)
		if (counts[i].ready && counts[i].pid != getppid())
			fprintf(f, "%s %lu\n", counts[i].name, counts[i].n);
	fclose(f);
	return 0;
}
