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
 */
#define _GNU_SOURCE
#include <link.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define MAX_NAMES 4096

static uintptr_t *main_cookie;
static struct { const char *name; pid_t pid; unsigned long n; } counts[MAX_NAMES];
static int nnames;

unsigned la_version(unsigned v)
{
	return v < LAV_CURRENT ? v : LAV_CURRENT;
}

unsigned la_objopen(struct link_map *map, Lmid_t lmid, uintptr_t *cookie)
{
	(void)lmid;
	if (!main_cookie && map->l_name[0] == 0)
		main_cookie = cookie;	/* the executable comes first, unnamed */
	return LA_FLG_BINDTO | LA_FLG_BINDFROM;
}

uintptr_t la_symbind64(Elf64_Sym *sym, unsigned ndx, uintptr_t *refcook,
		       uintptr_t *defcook, unsigned *flags, const char *name)
{
	(void)ndx; (void)defcook; (void)name;
	if (refcook != main_cookie)
		*flags |= LA_SYMB_NOPLTENTER | LA_SYMB_NOPLTEXIT;
	return sym->st_value;
}

static void count(const char *name)
{
	pid_t pid = getpid();
	int i;

	for (i = 0; i < nnames; i++)
		if (counts[i].pid == pid && !strcmp(counts[i].name, name))
			break;
	if (i == nnames && nnames < MAX_NAMES) {
		counts[i].name = name;
		counts[i].pid = pid;
		nnames++;
	}
	if (i < MAX_NAMES)
		__atomic_add_fetch(&counts[i].n, 1, __ATOMIC_RELAXED);
}

Elf64_Addr la_x86_64_gnu_pltenter(Elf64_Sym *sym, unsigned ndx, uintptr_t *refcook,
				  uintptr_t *defcook, La_x86_64_regs *regs, unsigned *flags,
				  const char *name, long *framesizep)
{
	(void)ndx; (void)refcook; (void)defcook; (void)regs; (void)flags; (void)framesizep;
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
	for (int i = 0; i < nnames; i++)
		if (counts[i].pid != getppid())
			fprintf(f, "%s %lu\n", counts[i].name, counts[i].n);
	fclose(f);
	return 0;
}
