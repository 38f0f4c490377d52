// SPDX-License-Identifier: MIT
/*
 * plt_got.c - point an object's GOT entries of library functions at
 * per-symbol stubs: the executable's, and with --nest-libcall those of
 * the libraries plt_nest.c picks.
 *
 * The entries are the object's R_X86_64_JUMP_SLOT relocations (calls
 * through the PLT) and its R_X86_64_GLOB_DAT relocations of undefined
 * function symbols (-fno-plt calls through the GOT, and the addresses of
 * library functions it takes).  The loader has bound them when this runs
 * (fdr record sets LD_BIND_NOW; a -z now program is bound anyway), so
 * each entry already holds the function's address, an IRELATIVE/ifunc
 * symbol's chosen implementation included.  An entry still pointing into
 * the object (lazy binding not done) is left alone and counted.
 *
 * A stub is "push $index; jmp *cell(%rip)": 16 bytes of a mapping
 * filled read-write, then made read-execute, whose first 16 bytes hold
 * the cell, fdr__plt_entry's address.  RELRO pages of the GOT are made
 * writable for the rewrite and read-only again.
 *
 * A library's dlopen and dlclose entries may call fdr's wrappers instead
 * of libc's functions (fdr__plt_route_dl: an fdr-cc build's, dl_lib.c),
 * named and numbered as libc's all the same.
 */
#include <elf.h>
#include <link.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "plt_hook.h"

#define STUB_SIZE	16

struct fdr_plt_sym *fdr__plt_syms;
uint32_t fdr__plt_nsyms;

struct dyn_info {
	uintptr_t bias;
	const ElfW(Rela) *jmprel, *rela;
	size_t njmprel, nrela;
	const ElfW(Sym) *symtab;
	const char *strtab;
	uintptr_t lo, hi;	/* the object's mapped range */
	uintptr_t relro_lo, relro_hi;
};

struct hook_state {
	struct dyn_info d;
	uint8_t *stubs;
	uint32_t first;		/* fdr__plt_syms index of the first stub */
	uint32_t cap, hooked, unbound;
	uint32_t *by_sym;	/* symbol index -> fdr__plt_syms index + 1 */
	size_t nsym_max;
	bool lib;		/* a library's GOT, not the executable's */
};

/* The loader relocates most d_ptr values in place; a link-time value
 * (below the bias of a PIE) still needs it. */
static uintptr_t dyn_ptr(uintptr_t bias, uintptr_t p)
{
	return p < bias ? p + bias : p;
}

static void object_info(const struct dl_phdr_info *info, struct dyn_info *d)
{
	const ElfW(Dyn) *dyn = NULL;
	size_t jmpsz = 0, relasz = 0;

	d->bias = info->dlpi_addr;
	d->lo = UINTPTR_MAX;
	for (int i = 0; i < info->dlpi_phnum; i++) {
		const ElfW(Phdr) *ph = &info->dlpi_phdr[i];

		if (ph->p_type == PT_GNU_RELRO) {
			d->relro_lo = d->bias + ph->p_vaddr;
			d->relro_hi = d->relro_lo + ph->p_memsz;
		}
		if (ph->p_type == PT_DYNAMIC)
			dyn = (const void *)(d->bias + ph->p_vaddr);
		if (ph->p_type == PT_LOAD) {
			uintptr_t lo = d->bias + ph->p_vaddr;

			d->lo = lo < d->lo ? lo : d->lo;
			d->hi = lo + ph->p_memsz > d->hi ? lo + ph->p_memsz : d->hi;
		}
	}
	for (; dyn && dyn->d_tag != DT_NULL; dyn++) {
		uintptr_t p = dyn_ptr(d->bias, dyn->d_un.d_ptr);

		switch (dyn->d_tag) {
		case DT_JMPREL: d->jmprel = (const void *)p; break;
		case DT_PLTRELSZ: jmpsz = dyn->d_un.d_val; break;
		case DT_RELA: d->rela = (const void *)p; break;
		case DT_RELASZ: relasz = dyn->d_un.d_val; break;
		case DT_SYMTAB: d->symtab = (const void *)p; break;
		case DT_STRTAB: d->strtab = (const void *)p; break;
		}
	}
	d->njmprel = d->jmprel ? jmpsz / sizeof(ElfW(Rela)) : 0;
	d->nrela = d->rela ? relasz / sizeof(ElfW(Rela)) : 0;
}

static int main_info(struct dl_phdr_info *info, size_t size, void *arg)
{
	(void)size;
	*(struct dl_phdr_info *)arg = *info;
	return 1;	/* the executable is listed first */
}

/* A relocation worth hooking: a library function the object calls. */
static const char *hookable(const struct dyn_info *d, const ElfW(Rela) *r)
{
	const ElfW(Sym) *sym;
	unsigned type = ELF64_R_TYPE(r->r_info), st;

	if (type != R_X86_64_JUMP_SLOT && type != R_X86_64_GLOB_DAT)
		return NULL;
	sym = &d->symtab[ELF64_R_SYM(r->r_info)];
	st = ELF64_ST_TYPE(sym->st_info);
	if (sym->st_shndx != SHN_UNDEF || sym->st_name == 0)
		return NULL;	/* the object's own, or no name */
	if (type == R_X86_64_GLOB_DAT && st != STT_FUNC && st != STT_GNU_IFUNC)
		return NULL;	/* data (stdout, environ) */
	return d->strtab + sym->st_name;
}

static size_t count_max(const struct dyn_info *d)
{
	size_t n = 0, sym_max = 0;
	const ElfW(Rela) *tabs[2] = { d->jmprel, d->rela };
	size_t lens[2] = { d->njmprel, d->nrela };

	for (int t = 0; t < 2; t++)
		for (size_t i = 0; i < lens[t]; i++) {
			size_t s = ELF64_R_SYM(tabs[t][i].r_info);

			n++;
			sym_max = s > sym_max ? s : sym_max;
		}
	return n > sym_max + 1 ? n : sym_max + 1;
}

/* The stub of fdr__plt_syms[index] at base + STUB_SIZE * (local + 1);
 * the cell at base. */
static void make_stub(uint8_t *base, uint32_t local, uint32_t index)
{
	uint8_t *p = base + (size_t)STUB_SIZE * (local + 1);
	int32_t rel = (int32_t)(base - (p + 11));

	p[0] = 0x68;			/* push $imm32 */
	memcpy(p + 1, &index, 4);
	p[5] = 0xff;			/* jmp *rel32(%rip) */
	p[6] = 0x25;
	memcpy(p + 7, &rel, 4);
	memset(p + 11, 0xcc, STUB_SIZE - 11);
}

static uint32_t syms_cap;

/*
 * A library dlopen()ed later is patched while the program's threads run
 * hooks that read the array (patch_dlopen.c): a larger one is filled,
 * then published, and the old one is kept, since a hook may still be
 * reading it.  Doubling bounds what is kept by the final size.
 */
int fdr__plt_syms_reserve(uint32_t more)
{
	uint32_t need = fdr__plt_nsyms + more, cap = need > 2 * syms_cap ? need : 2 * syms_cap;
	struct fdr_plt_sym *v;

	if (need <= syms_cap)
		return 0;
	if (!(v = malloc((size_t)cap * sizeof(*v))))
		return -1;
	if (fdr__plt_nsyms)
		memcpy(v, fdr__plt_syms, (size_t)fdr__plt_nsyms * sizeof(*v));
	__atomic_store_n(&fdr__plt_syms, v, __ATOMIC_RELEASE);
	syms_cap = cap;
	return 0;
}

static uintptr_t page_of(uintptr_t a)
{
	return a & ~(uintptr_t)(sysconf(_SC_PAGESIZE) - 1);
}

static int writable(uintptr_t *slot)
{
	return mprotect((void *)page_of((uintptr_t)slot), (size_t)sysconf(_SC_PAGESIZE),
			PROT_READ | PROT_WRITE);
}

static uintptr_t route_dlopen, route_dlclose;

void fdr__plt_route_dl(uintptr_t dlopen_fn, uintptr_t dlclose_fn)
{
	route_dlopen = dlopen_fn;
	route_dlclose = dlclose_fn;
}

/* What a stub of name calls: what the loader bound, or a wrapper. */
static uintptr_t target_of(const struct hook_state *h, const char *name, uintptr_t bound)
{
	if (h->lib && route_dlopen && !strcmp(name, "dlopen"))
		return route_dlopen;
	if (h->lib && route_dlclose && !strcmp(name, "dlclose"))
		return route_dlclose;
	return bound;
}

/* One relocation: the symbol's stub (made once per symbol), the slot. */
static void hook_one(struct hook_state *h, const ElfW(Rela) *r)
{
	const char *name = hookable(&h->d, r);
	uintptr_t *slot = (uintptr_t *)(h->d.bias + r->r_offset);
	size_t s = ELF64_R_SYM(r->r_info);
	uint32_t idx;

	if (!name || fdr__plt_skip(name) || *slot == 0)
		return;
	if (*slot >= h->d.lo && *slot < h->d.hi) {
		h->unbound++;	/* lazy binding, not done yet */
		return;
	}
	if (!h->by_sym[s]) {
		if (fdr__plt_nsyms - h->first >= h->cap)
			return;
		idx = fdr__plt_nsyms;
		/* The name copied: the object's .dynstr goes with a dlclose(),
		 * and a fork child names the whole table (plt_ids.c) before the
		 * parent's dlclose() wrapper has forgotten its entries. */
		fdr__plt_syms[idx] = (struct fdr_plt_sym){
			.target = target_of(h, name, *slot), .name = strdup(name) ?: name,
			.catches = !strcmp(name, "__cxa_begin_catch"), .addr = *slot,
			.keeps_ret = fdr__plt_keeps_return(name) };
		fdr__plt_nsyms = idx + 1;
		h->by_sym[s] = idx + 1;
	}
	idx = h->by_sym[s] - 1;
	if (writable(slot))
		return;
	/* the entry is written before a thread can reach it (a library
	 * dlopen()ed while the program's threads run) */
	__atomic_store_n(slot, (uintptr_t)(h->stubs + (size_t)(idx - h->first + 1) * STUB_SIZE),
			 __ATOMIC_RELEASE);
	h->hooked++;
}

/* The stubs of fdr__plt_syms[h->first...], h->cap of them: 0 or -1. */
static int make_stubs(struct hook_state *h, size_t bytes)
{
	h->stubs = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (h->stubs == MAP_FAILED)
		return -1;
	memcpy(h->stubs, &(uintptr_t){ (uintptr_t)fdr__plt_entry }, sizeof(uintptr_t));
	for (uint32_t i = 0; i < h->cap; i++)
		make_stub(h->stubs, i, h->first + i);
	if (mprotect(h->stubs, bytes, PROT_READ | PROT_EXEC)) {
		munmap(h->stubs, bytes);
		return -1;
	}
	return 0;
}

/*
 * The stubs stay mapped for the process's life, even when the object is
 * dlclose()d: a function pointer the object took through a GLOB_DAT
 * entry (a stub's address) may have been handed on and still be called.
 */
uint32_t fdr__plt_hook_object(const struct dl_phdr_info *info, uint32_t *unbound)
{
	struct hook_state h = { 0 };
	size_t bytes;

	object_info(info, &h.d);
	h.lib = info->dlpi_name && info->dlpi_name[0];	/* the executable's is "" */
	*unbound = 0;
	if (!h.d.symtab || !h.d.strtab || (!h.d.njmprel && !h.d.nrela))
		return 0;
	h.nsym_max = count_max(&h.d);
	h.cap = (uint32_t)(h.d.njmprel + h.d.nrela);
	h.first = fdr__plt_nsyms;
	bytes = (size_t)(h.cap + 1) * STUB_SIZE;
	if (fdr__plt_syms_reserve(h.cap))
		return 0;
	h.by_sym = calloc(h.nsym_max, sizeof(*h.by_sym));
	if (!h.by_sym || make_stubs(&h, bytes)) {
		free(h.by_sym);
		return 0;
	}
	for (size_t i = 0; i < h.d.njmprel; i++)
		hook_one(&h, &h.d.jmprel[i]);
	for (size_t i = 0; i < h.d.nrela; i++)
		hook_one(&h, &h.d.rela[i]);
	free(h.by_sym);
	if (h.d.relro_hi > h.d.relro_lo)	/* the loader's protection, back */
		mprotect((void *)page_of(h.d.relro_lo),
			 page_of(h.d.relro_hi) - page_of(h.d.relro_lo), PROT_READ);
	if (!h.hooked)
		munmap(h.stubs, bytes);
	*unbound = h.unbound;
	return h.hooked;
}

uint32_t fdr__plt_hook_main(uint32_t *unbound)
{
	struct dl_phdr_info exe;

	dl_iterate_phdr(main_info, &exe);
	return fdr__plt_hook_object(&exe, unbound);
}
