// SPDX-License-Identifier: MIT
/*
 * pfe_text.c - the executable's text segments, for fdr-cc --patchable's
 * runtime (pfe_hook.h): a listed site is only read or written when its
 * bytes lie inside one (the list is the program's own data, checked like
 * any input), and the segments are made writable, still executable,
 * only around the writes, then given back the protection the file says.
 */
#include <link.h>
#include <sys/mman.h>
#include <unistd.h>

#include "pfe_hook.h"

static int exe_text(struct dl_phdr_info *info, size_t size, void *arg)
{
	struct fdr_pfe_text *t = arg;

	(void)size;
	for (int i = 0; i < info->dlpi_phnum && t->n < FDR_PFE_SEGS_MAX; i++) {
		const ElfW(Phdr) *ph = &info->dlpi_phdr[i];

		if (ph->p_type != PT_LOAD || !(ph->p_flags & PF_X))
			continue;
		t->lo[t->n] = info->dlpi_addr + ph->p_vaddr;
		t->hi[t->n] = t->lo[t->n] + ph->p_filesz;
		t->prot[t->n++] = PROT_EXEC | (ph->p_flags & PF_R ? PROT_READ : 0) |
				  (ph->p_flags & PF_W ? PROT_WRITE : 0);
	}
	return 1;	/* the executable is listed first */
}

void fdr__pfe_text_find(struct fdr_pfe_text *t)
{
	t->n = 0;
	dl_iterate_phdr(exe_text, t);
}

bool fdr__pfe_text_holds(const struct fdr_pfe_text *t, uintptr_t at, size_t len)
{
	for (int i = 0; i < t->n; i++)
		if (at >= t->lo[i] && at + len <= t->hi[i] && at + len > at)
			return true;
	return false;
}

int fdr__pfe_text_writable(const struct fdr_pfe_text *t, bool on)
{
	uintptr_t page = (uintptr_t)sysconf(_SC_PAGESIZE);
	int r = 0;

	for (int i = 0; i < t->n; i++) {
		uintptr_t a = t->lo[i] & ~(page - 1);

		r |= mprotect((void *)a, t->hi[i] - a,
			      on ? PROT_READ | PROT_WRITE | PROT_EXEC : t->prot[i]);
	}
	return r;
}
