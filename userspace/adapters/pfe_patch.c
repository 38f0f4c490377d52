// SPDX-License-Identifier: MIT
/*
 * pfe_patch.c - write and unwrite fdr-cc --patchable's nop sites
 * (pfe_hook.h).
 *
 * The first call finds the sites, makes one stub each in a mapping
 * within a rel32 of them, claims each function's id and names it in the
 * sym-map, as fdr record -P does for the functions it patches
 * (plt_preload.c); all of that is kept, so the stubs, fdr__plt_syms and
 * the shadow stacks a returning frame needs stay valid after an
 * unpatch.  The text pages are writable (and executable) only while the
 * sites are written.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "fid_assign.h"
#include "module_lookup.h"
#include "patch_hook.h"
#include "patch_stub.h"
#include "pfe_hook.h"
#include "plt_hook.h"
#include "sym_map.h"

/* The linker's bounds of the section, if the program has one. */
extern const uintptr_t __start___patchable_function_entries[]
	__attribute__((weak, visibility("hidden")));
extern const uintptr_t __stop___patchable_function_entries[]
	__attribute__((weak, visibility("hidden")));

#define NOP_LEN		5
#define WORD		8

struct site {
	uintptr_t at;		/* the nop */
	uint8_t nop[NOP_LEN];	/* its bytes, to write back */
	bool in_text;		/* inside a text segment: may be read */
	bool patched;
	bool pending;		/* across two words: for "stopped" */
};

static struct {
	struct site *v;		/* v[i] is fdr__plt_syms[i]'s */
	uint8_t *stubs;		/* the cell, then v[i]'s stub */
	uint32_t n;
	struct fdr_pfe_text text;
	int err;		/* of the first call, for every later one */
	bool ready;
} pfe;

/* clang's 5-byte nop: nopl disp8(%rax,%rax,1), any disp8. */
static bool is_nop5(const uint8_t *p)
{
	return p[0] == 0x0f && p[1] == 0x1f && p[2] == 0x44 && p[3] == 0x00;
}

static void name_sym(uint32_t i)
{
	if (fdr__plt_syms[i].fid)
		fdr__plt_sym_name(&fdr__plt_syms[i]);
}

/* Site i's stub, table entry, id and name. */
static void make_one(uint8_t *stubs, uint32_t i, uintptr_t at)
{
	struct fdr_module *m = fdr__module_find(at);
	const char *name = m ? fdr__module_symbol(m, at - m->bias) : NULL;

	pfe.v[i].at = at;
	pfe.v[i].in_text = fdr__pfe_text_holds(&pfe.text, at, NOP_LEN);
	if (pfe.v[i].in_text)
		memcpy(pfe.v[i].nop, (const void *)at, NOP_LEN);
	fdr__patch_make_stub(stubs + FDR_PATCH_STUB_SIZE * (1 + (size_t)i), i,
			     (const uintptr_t *)stubs);
	fdr__plt_syms[i] = (struct fdr_plt_sym){
		.target = at + NOP_LEN, .name = name ? name : "?", .addr = at, .keeps_all = true,
		.fid = (int32_t)fdr__fid_claim(m, m ? at - m->bias : at),
		.module = m ? m->index + 1 : 0 };
	name_sym(i);
}

static int prepare(void)
{
	const uintptr_t *b = __start___patchable_function_entries;
	const uintptr_t *e = __stop___patchable_function_entries;
	uintptr_t lo = UINTPTR_MAX, hi = 0;
	uint8_t *stubs;
	size_t size;

	if (!b || !e || e <= b || fdr__plt_nsyms)
		return -ENOENT;	/* no sites; or -P's table already in use */
	fdr__pfe_text_find(&pfe.text);
	pfe.n = (uint32_t)(e - b);
	for (uint32_t i = 0; i < pfe.n; i++) {
		if (!fdr__pfe_text_holds(&pfe.text, b[i], NOP_LEN))
			continue;	/* never patched: no stub it must reach */
		lo = b[i] < lo ? b[i] : lo;
		hi = b[i] > hi ? b[i] : hi;
	}
	if (lo > hi)
		lo = hi = pfe.text.lo[0];
	size = FDR_PATCH_STUB_SIZE * (1 + (size_t)pfe.n);
	pfe.v = calloc(pfe.n, sizeof(*pfe.v));
	if (!pfe.v || fdr__plt_syms_reserve(pfe.n) ||
	    !(stubs = fdr__patch_map_near(lo, hi + NOP_LEN, size)))
		return -ENOMEM;
	pfe.stubs = stubs;
	memcpy(stubs, &(uintptr_t){ (uintptr_t)fdr__patch_entry }, sizeof(uintptr_t));
	for (uint32_t i = 0; i < pfe.n; i++)
		make_one(stubs, i, b[i]);
	fdr__plt_nsyms = pfe.n;
	return mprotect(stubs, size, PROT_READ | PROT_EXEC) ? -errno : 0;
}

/* Do the 5 bytes at at lie across two aligned 8-byte words? */
static bool straddles(uintptr_t at)
{
	return (at & (WORD - 1)) + NOP_LEN > WORD;
}

/* The 5 bytes at at: in one atomic store when they lie in one word, else
 * a plain copy (the caller knows no other thread runs). */
static void write_site(uintptr_t at, const uint8_t *bytes)
{
	uintptr_t w = at & ~(uintptr_t)(WORD - 1);
	uint64_t v;

	if (!straddles(at)) {
		memcpy(&v, (const void *)w, WORD);
		memcpy((uint8_t *)&v + (at - w), bytes, NOP_LEN);
		__atomic_store_n((uint64_t *)w, v, __ATOMIC_RELEASE);
		return;
	}
	memcpy((void *)at, bytes, NOP_LEN);
}

/* Site i's jmp to its stub. */
static void jmp_of(uint32_t i, uint8_t *jmp)
{
	const uint8_t *stub = pfe.stubs + FDR_PATCH_STUB_SIZE * (1 + (size_t)i);
	int32_t rel = (int32_t)((intptr_t)stub - (intptr_t)(pfe.v[i].at + NOP_LEN));

	jmp[0] = 0xe9;
	memcpy(jmp + 1, &rel, sizeof(rel));
}

/* live: other threads run; a site across two words waits for
 * fdr__pfe_patch_pending then. */
static enum fdr_patch_why patch_site(uint32_t i, bool live)
{
	struct site *s = &pfe.v[i];
	uint8_t jmp[NOP_LEN];

	if (s->patched)
		return FDR_PATCH_OK;	/* left by a detach that could not */
	if (!s->in_text || !is_nop5((const uint8_t *)s->at) ||
	    memcmp((const void *)s->at, s->nop, NOP_LEN))
		return FDR_PATCH_NOT_NOP;
	if (live && straddles(s->at)) {
		s->pending = true;
		return FDR_PATCH_NOT_ATOMIC;
	}
	jmp_of(i, jmp);
	write_site(s->at, jmp);
	s->patched = true;
	return FDR_PATCH_OK;
}

static bool wanted(const struct fdr_patch_select *sel, uint32_t i)
{
	const char *name = fdr__plt_syms[i].name;

	return (!sel || fdr__patch_selected(sel, name)) && !fdr__plt_skip(name) &&
	       fdr__plt_syms[i].fid;
}

static int patch_all(const struct fdr_patch_select *sel, struct fdr_patch_coverage *cov,
		     bool live)
{
	enum fdr_patch_why why;
	int n = 0;

	if (fdr__pfe_text_writable(&pfe.text, true)) {
		int err = errno;

		fdr__pfe_text_writable(&pfe.text, false);
		for (uint32_t i = 0; cov && i < pfe.n; i++) {
			cov->functions++;
			if (wanted(sel, i)) {
				cov->selected++;
				fdr__patch_coverage_count(cov, fdr__plt_syms[i].name,
							  FDR_PATCH_READ_ONLY);
			}
		}
		return -err;
	}
	for (uint32_t i = 0; i < pfe.n; i++) {
		if (cov)
			cov->functions++;
		if (!wanted(sel, i))
			continue;
		why = patch_site(i, live);
		n += why == FDR_PATCH_OK;
		if (cov) {
			cov->selected++;
			fdr__patch_coverage_count(cov, fdr__plt_syms[i].name, why);
		}
	}
	fdr__pfe_text_writable(&pfe.text, false);
	return n;
}

int fdr__pfe_patch(const char *patterns, struct fdr_patch_coverage *cov, bool live)
{
	struct fdr_patch_select *sel = NULL;
	int n;

	if (!pfe.ready) {
		pfe.err = prepare();
		pfe.ready = true;
	}
	if (pfe.err)
		return pfe.err;
	/* the executable's own sites: patterns without @LIBRARY */
	if (patterns && *patterns && !(sel = fdr__patch_select_new(patterns, "", true)))
		return -EINVAL;
	n = patch_all(sel, cov, live);
	fdr__patch_select_free(sel);
	return n;
}

int fdr__pfe_patch_pending(void)
{
	uint8_t jmp[NOP_LEN];
	int n = 0;

	if (!pfe.ready || pfe.err || fdr__pfe_text_writable(&pfe.text, true))
		return 0;
	for (uint32_t i = 0; i < pfe.n; i++) {
		struct site *s = &pfe.v[i];

		if (!s->pending || memcmp((const void *)s->at, s->nop, NOP_LEN))
			continue;
		jmp_of(i, jmp);
		write_site(s->at, jmp);
		s->patched = true;
		s->pending = false;
		n++;
	}
	fdr__pfe_text_writable(&pfe.text, false);
	return n;
}

void fdr__pfe_unpatch(bool live)
{
	if (!pfe.ready || pfe.err || fdr__pfe_text_writable(&pfe.text, true))
		return;		/* it was writable at the patch: cannot happen */
	for (uint32_t i = 0; i < pfe.n; i++) {
		struct site *s = &pfe.v[i];

		s->pending = false;
		if (!s->patched || (live && straddles(s->at)))
			continue;	/* the unmap writes those back, all stopped */
		write_site(s->at, s->nop);
		s->patched = false;
	}
	fdr__pfe_text_writable(&pfe.text, false);
}

void fdr__pfe_rename(void)
{
	fdr__sym_map_forget();
	for (uint32_t i = 0; i < pfe.n; i++)
		name_sym(i);
}
