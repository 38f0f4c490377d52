// SPDX-License-Identifier: MIT
/*
 * plt_args.c - arguments and return values of library calls (`fdr record
 * -A/-R` on a program not built with fdr-cc).  $FDR_PLT_ARGS, set by fdr
 * record, lists "=NAME:ARGS:RET" entries (args_regs.h; xray_args.h has
 * the language): NAME the name the program imports.  The records are the
 * XRay functions' (Documentation/format.md §2): EnterArg and its
 * CallArguments in place of the Enter, "fdr.astr" after them, "fdr.rval"
 * before the Exit.
 *
 * The entry trampoline (plt_tramp_x86_64.S) hands over its block of
 * saved registers: rdi..r9, rax, r10 (8 bytes each), then xmm0-7 (16
 * each); the return trampoline its rax, rdx, xmm0, xmm1.  Stack slots are
 * read above the caller's return address, where the callee finds them.
 * A call's spec is found by its name and then kept by id (append-only,
 * lock-free: a signal handler's library calls come here too).
 */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fdr.h"
#include <linux/fdr.h>
#include <linux/fdr_log.h>
#include "args_regs.h"
#include "plt_args.h"

bool fdr__plt_args_on;
static struct fdr__args_named *named;
static size_t nnamed;
struct fdr__plt_args_hit fdr__plt_args_hits[FDR_PLT_ARGS_HITS];

/* "=NAME:ARGS:RET;..." into named; 0 or -1. */
static int parse(const char *env)
{
	size_t n = 1;

	for (const char *p = env; (p = strchr(p, ';')); p++)
		n++;
	named = calloc(n, sizeof(*named));
	if (!named)
		return -1;
	for (const char *p = env; *p;) {
		const char *end = p + strcspn(p, ";");

		if (fdr__args_parse_named(&named[nnamed], p, end))
			return -1;
		nnamed++;
		p = *end ? end + 1 : end;
	}
	return 0;
}

void fdr__plt_args_load(void)
{
	const char *env = secure_getenv("FDR_PLT_ARGS");
	static const char msg[] = "fdr: FDR_PLT_ARGS does not parse (fdr record writes it: "
				  "record with fdr record -A/-R); no arguments are recorded\n";

	if (!env || !*env || named)
		return;		/* none, or loaded: the start-up may call twice */
	if (parse(env)) {
		if (write(2, msg, sizeof(msg) - 1) < 0)
			return;
		nnamed = 0;
		return;
	}
	fdr__plt_args_on = true;
}

/* Ids without a spec are kept while the table is at most half full:
 * a spec's id always finds a slot (its exit needs it for the return
 * value) and a probe stays short. */
static uint32_t nkept;

/* Remember fid's spec (NULL: none) for its later calls and its exits;
 * a slot another thread claimed for the same fid is left to it (its
 * ready follows within a few instructions). */
static void remember(int32_t fid, const struct fdr__xray_fn_spec *spec)
{
	uint32_t h = fdr__plt_args_slot(fid);

	if (__atomic_add_fetch(&nkept, 1, __ATOMIC_RELAXED) > FDR_PLT_ARGS_HITS / 2 && !spec) {
		__atomic_sub_fetch(&nkept, 1, __ATOMIC_RELAXED);
		return;		/* the general path looks it up by name each time */
	}
	for (uint32_t n = 0; n < FDR_PLT_ARGS_HITS; n++, h = (h + 1) & (FDR_PLT_ARGS_HITS - 1)) {
		struct fdr__plt_args_hit *e = &fdr__plt_args_hits[h];
		int32_t free = 0;

		if (__atomic_compare_exchange_n(&e->fid, &free, fid, false,
						__ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE)) {
			e->spec = spec;
			__atomic_store_n(&e->ready, 1, __ATOMIC_RELEASE);
			return;
		}
		if (free == fid)
			break;
	}
	__atomic_sub_fetch(&nkept, 1, __ATOMIC_RELAXED);	/* not ours */
}

/* fid's spec: remembered, else looked up by name (NULL: none). */
static const struct fdr__xray_fn_spec *spec_of(int32_t fid, const char *name)
{
	const struct fdr__xray_fn_spec *f;

	if (fdr__plt_args_known(fid, &f))
		return f;
	if (!name)	/* an exit: its entry looked it up */
		return NULL;
	f = fdr__args_named_find(named, nnamed, name);
	remember(fid, f);
	return f;
}

static bool enter_args(int32_t fid, const char *name, const uint64_t *regs,
		       const uintptr_t *ret_slot)
{
	const struct fdr__xray_fn_spec *f = spec_of(fid, name);
	uint8_t ev[8 + FDR_ENTER_ARGS_MAX * FDR_ARGS_STR_ROOM];
	uint64_t v[FDR_ENTER_ARGS_MAX] = { 0 };
	size_t len = 8;

	if (!f || !regs)
		return false;
	memcpy(ev, FDR_ARGS_STR_MAGIC, 8);
	for (unsigned i = 0; i < f->n; i++) {
		v[i] = fdr__plt_args_value(f->arg[i].slot, regs, ret_slot);
		if (f->arg[i].cls == 's')
			len += fdr__args_copy_string(ev + len, (uint8_t)i, v[i]);
	}
	fdr_enter_args(fid, v, f->n);
	if (len > 8)
		fdr_custom_event(ev, len);
	return true;
}

static void exit_value(int32_t fid, const uint64_t *regs)
{
	const struct fdr__xray_fn_spec *f = regs ? spec_of(fid, NULL) : NULL;
	uint8_t ev[16 + FDR_ARGS_STR_ROOM];
	uint64_t value;
	size_t len = 16;

	if (!f || !f->ret)
		return;
	value = f->ret == 'f' ? regs[2] : regs[0];	/* xmm0 at 16, rax at 0 */
	memcpy(ev, FDR_ARGS_RET_MAGIC, 8);
	memcpy(ev + 8, &value, 8);
	if (f->ret == 's')
		len += fdr__args_copy_string(ev + len, 0, value);
	fdr_custom_event(ev, len);
}

void fdr__plt_args_enter(void *call)
{
	const struct fdr__plt_args_call *c = call;

	if (!enter_args(c->fid, c->name, c->regs, c->ret_slot))
		fdr_enter(c->fid);
}

void fdr__plt_args_exit(void *call)
{
	const struct fdr__plt_args_call *c = call;

	exit_value(c->fid, c->regs);
	fdr_exit(c->fid);
}
