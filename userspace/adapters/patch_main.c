// SPDX-License-Identifier: MIT
/*
 * patch_main.c - fdr record -P: patch the executable's selected
 * functions (patch_hook.h), in the preload constructor.
 *
 * The functions are the executable file's own symbol table (.symtab,
 * .dynsym when stripped, with what its DWARF adds: patch_funcs.h), each
 * address once; a function must lie inside an
 * executable PT_LOAD segment of the file, or it is not a function we may
 * write to (the file is as hostile as any input).  The trampolines live
 * in one mapping within 2 GiB of the executable (below it: above it is
 * where brk grows), written read-write, then made read-execute; the
 * text segments are writable only while the jmps are written.  Nothing
 * else runs meanwhile: the program's code has not started, and no
 * thread but this one exists (patch_alone.c checks; else nothing is
 * patched).
 */
#include <limits.h>
#include <link.h>
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>
#include <sys/mman.h>
#include <unistd.h>

#include "fdr_env.h"
#include "patch_coverage.h"
#include "patch_funcs.h"
#include "patch_hook.h"
#include "patch_stub.h"
#include "plt_hook.h"

#define SEGS_MAX	8
#define STUB_SIZE	FDR_PATCH_STUB_SIZE
#define SLOT_SIZE	(STUB_SIZE + FDR_PATCH_CODE_MAX)

struct exe {
	uintptr_t bias, lo, hi;			/* run-time range mapped */
	uintptr_t seg_lo[SEGS_MAX], seg_hi[SEGS_MAX];	/* executable, file-backed */
	int seg_prot[SEGS_MAX];
	int nsegs;
};

struct region {
	uint8_t *base;		/* the stubs' cell, then one slot a function */
	size_t size;
	uint32_t used;
};

/* The load bias, the span and the executable segments of an object. */
static void object_segments(const struct dl_phdr_info *info, struct exe *x)
{
	x->bias = info->dlpi_addr;
	x->lo = UINTPTR_MAX;
	for (int i = 0; i < info->dlpi_phnum; i++) {
		const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
		uintptr_t lo = x->bias + ph->p_vaddr;

		if (ph->p_type != PT_LOAD)
			continue;
		x->lo = lo < x->lo ? lo : x->lo;
		x->hi = lo + ph->p_memsz > x->hi ? lo + ph->p_memsz : x->hi;
		if (!(ph->p_flags & PF_X) || x->nsegs == SEGS_MAX)
			continue;
		x->seg_lo[x->nsegs] = lo;
		x->seg_hi[x->nsegs] = lo + ph->p_filesz;
		x->seg_prot[x->nsegs++] = PROT_EXEC | (ph->p_flags & PF_R ? PROT_READ : 0) |
					  (ph->p_flags & PF_W ? PROT_WRITE : 0);
	}
}

static int first_object(struct dl_phdr_info *info, size_t size, void *arg)
{
	(void)size;
	*(struct dl_phdr_info *)arg = *info;
	return 1;	/* the executable is listed first */
}

/* The end of the text segment holding [lo, hi), or 0. */
static uintptr_t text_end(const struct exe *x, uintptr_t lo, uintptr_t hi)
{
	for (int i = 0; i < x->nsegs; i++)
		if (lo >= x->seg_lo[i] && hi <= x->seg_hi[i] && lo < hi)
			return x->seg_hi[i];
	return 0;
}

static uintptr_t page_down(uintptr_t a)
{
	return a & ~(uintptr_t)(sysconf(_SC_PAGESIZE) - 1);
}

/* prot for every text segment (PROT_NONE: as the file says); 0 or -1
 * (a security policy may refuse writable code). */
static int text_prot(const struct exe *x, int prot)
{
	int r = 0;

	for (int i = 0; i < x->nsegs; i++)
		r |= mprotect((void *)page_down(x->seg_lo[i]),
			      x->seg_hi[i] - page_down(x->seg_lo[i]), prot ? prot : x->seg_prot[i]);
	return r;
}

/* The jmp at plan->at to the stub, the rest of the moved bytes int3. */
static void write_jmp(const struct fdr_patch_plan *plan, const uint8_t *stub)
{
	uint8_t *p = (uint8_t *)plan->at;
	int32_t rel = (int32_t)((intptr_t)stub - (intptr_t)(plan->at + FDR_PATCH_JMP_LEN));

	memset(p + FDR_PATCH_JMP_LEN, 0xcc, plan->len - FDR_PATCH_JMP_LEN);
	memcpy(p + 1, &rel, 4);
	p[0] = 0xe9;
}

static bool reaches(uintptr_t from, uintptr_t to)
{
	intptr_t d = (intptr_t)(to - from);

	return d == (int32_t)d;
}

/* One selected function; the coverage counts why. */
static enum fdr_patch_why patch_one(void *dec, struct region *r, const struct fdr_patch_func *f)
{
	uint8_t *stub = r->base + STUB_SIZE + (size_t)r->used * SLOT_SIZE;
	uint8_t *code = stub + STUB_SIZE;
	uintptr_t fn = f->at;
	struct fdr_patch_plan plan;
	enum fdr_patch_why why;

	if (fn <= getauxval(AT_ENTRY) && getauxval(AT_ENTRY) < fn + f->size)
		return FDR_PATCH_ENTRY;
	if (fdr__patch_runtime_imports(f->name))
		return FDR_PATCH_RUNTIME;
	if (!reaches(fn + FDR_PATCH_JMP_LEN + 4, (uintptr_t)stub))
		return FDR_PATCH_NO_ROOM;
	why = fdr__patch_plan(dec, f, (uintptr_t)code, &plan);
	if (why != FDR_PATCH_OK)
		return why;
	memcpy(code, plan.code, plan.code_len);
	fdr__patch_make_stub(stub, fdr__plt_nsyms, (const uintptr_t *)r->base);
	fdr__plt_syms[fdr__plt_nsyms++] = (struct fdr_plt_sym){
		.target = (uintptr_t)code, .name = f->name, .addr = fn, .keeps_all = true };
	write_jmp(&plan, stub);
	r->used++;
	return FDR_PATCH_OK;
}

/* The functions of the index, each start once, inside the text, with
 * the bytes up to the next one's start (its padding may take the jmp). */
static void for_each_func(const struct fdr_patch_funcs *fs, const struct exe *x,
			  void (*fn)(const struct fdr_patch_func *f, void *arg), void *arg)
{
	for (size_t i = 0, j; i < fs->n; i = j) {
		uint64_t start = fs->v[i].start, end = fs->v[i].end, limit;
		uintptr_t seg_end = text_end(x, x->bias + start, x->bias + end);

		for (j = i + 1; j < fs->n && fs->v[j].start == start; j++)
			;
		if (!seg_end)
			continue;
		limit = seg_end - x->bias;
		if (j < fs->n && fs->v[j].start < limit)
			limit = fs->v[j].start;
		fn(&(struct fdr_patch_func){ fs->v[i].name, x->bias + start, end - start,
					     (limit > end ? limit : end) - start }, arg);
	}
}

struct run {
	struct fdr_patch_select *sel;
	void *dec;
	struct region r;
	struct fdr_patch_coverage cov;
	bool count_only;
	enum fdr_patch_why refuse;	/* FDR_PATCH_OK, or why none may be */
};

static void visit(const struct fdr_patch_func *f, void *arg)
{
	struct run *u = arg;

	u->cov.functions++;
	if (!fdr__patch_selected(u->sel, f->name) || fdr__plt_skip(f->name))
		return;
	u->cov.selected++;
	if (!u->count_only)
		fdr__patch_coverage_count(&u->cov, f->name, patch_one(u->dec, &u->r, f));
}

static void patch_all(struct run *u, const struct fdr_patch_funcs *st, const struct exe *x)
{
	u->count_only = true;
	for_each_func(st, x, visit, u);
	u->r.size = STUB_SIZE + (size_t)u->cov.selected * SLOT_SIZE;
	if (u->cov.selected && u->refuse != FDR_PATCH_OK) {
		u->cov.n[u->refuse] = u->cov.selected;
		return;
	}
	if (!u->cov.selected || fdr__plt_syms_reserve(u->cov.selected) ||
	    !(u->r.base = fdr__patch_map_near(x->lo, x->hi, u->r.size))) {
		u->cov.n[FDR_PATCH_NO_ROOM] = u->cov.selected;
		return;
	}
	memcpy(u->r.base, &(uintptr_t){ (uintptr_t)fdr__patch_entry }, sizeof(uintptr_t));
	if (text_prot(x, PROT_READ | PROT_WRITE | PROT_EXEC)) {
		text_prot(x, PROT_NONE);
		u->cov.n[FDR_PATCH_READ_ONLY] = u->cov.selected;
		return;
	}
	u->count_only = false;
	u->cov = (struct fdr_patch_coverage){ 0 };
	for_each_func(st, x, visit, u);
	text_prot(x, PROT_NONE);
	mprotect(u->r.base, u->r.size, PROT_READ | PROT_EXEC);
}

bool fdr__patch_no_libcall(void)
{
	const char *v = fdr__env(FDR_PATCH_NO_LIBCALL_ENV);

	return v && !strcmp(v, "1");
}

uint32_t fdr__patch_object(const char *patterns, const struct fdr_patch_target *t)
{
	struct fdr_patch_funcs st;
	struct exe x = { 0 };
	struct run u = { .refuse = t->refuse };
	bool ready;

	u.sel = fdr__patch_select_new(patterns, t->path, t->is_main);
	if (u.sel && fdr__patch_select_none(u.sel)) {
		fdr__patch_select_free(u.sel);
		return 0;	/* no pattern is about this object */
	}
	object_segments(t->info, &x);
	u.dec = fdr__patch_decoder_open();
	ready = u.sel && u.dec &&
		fdr__patch_funcs_open(&st, t->is_main ? "/proc/self/exe" : t->path) == 0;
	if (ready) {
		patch_all(&u, &st, &x);
		u.cov.table = st.table;
		u.cov.debug = st.debug;
		u.cov.ndwarf = st.ndwarf;
		fdr__patch_funcs_free(&st);
	}
	fdr__patch_select_free(u.sel);
	if (u.dec)
		fdr__patch_decoder_close(u.dec);
	fdr__patch_coverage_write(&u.cov, ready, t);
	return u.cov.n[FDR_PATCH_OK];
}

uint32_t fdr__patch_main(void)
{
	const char *patterns = fdr__env(FDR_PATCH_ENV);
	struct dl_phdr_info info;
	char exe[PATH_MAX];
	ssize_t n;

	if (!patterns || !*patterns)
		return 0;
	dl_iterate_phdr(first_object, &info);
	n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	exe[n > 0 ? n : 0] = '\0';
	return fdr__patch_object(patterns, &(struct fdr_patch_target){
		.info = &info, .path = exe, .is_main = true,
		.refuse = fdr__patch_alone() ? FDR_PATCH_OK : FDR_PATCH_THREADS });
}
