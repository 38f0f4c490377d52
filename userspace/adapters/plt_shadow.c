// SPDX-License-Identifier: MIT
/*
 * plt_shadow.c - the per-thread shadow stack of library calls.
 *
 * The entry trampoline saves the caller's return address here and puts
 * fdr__plt_return in its place; the return trampoline finds the entry by
 * the address of that slot (not merely the top: a longjmp out of a
 * library callback, qsort's comparator say, leaves entries whose frames
 * are gone) and gives the real address back.  Entries whose frames are
 * gone are closed (an exit record, so the log stays nested) when a
 * later call or return shows it: a new call's slot at or above theirs
 * on the same stack.  A handler on a sigaltstack runs above the frames
 * it interrupted, so that test is skipped there, except for an entry at
 * the new call's own slot (a tail call), which is over on any stack.
 *
 * errno is kept: recording may make system calls, and the caller reads
 * errno after the callee set it.  libc's errno is initial-exec TLS, at
 * one offset from the thread pointer in every thread (libc reads it so):
 * the hooks find it there, rather than call __errno_location through the
 * PLT twice a call.
 *
 * No vector register is touched between the caller and the callee: this
 * file is compiled with -mgeneral-regs-only (Makefile), the record's
 * common case is <fdr_inline.h>'s inline fast path, and its general path
 * (fdr_enter, fdr_exit: a new buffer, libc's AVX memcpy) runs through
 * fdr__vstate_call, which keeps every vector register (vstate_call.h);
 * so do the -A/-R records (plt_args.c: strcmp, memcpy), through
 * fdr__vstate_call_ptr.  The calls into libc here (sigaltstack; write and abort when lost) are
 * system calls.  Code added here must keep to that: the -P trampolines
 * (patch_tramp_x86_64.S) save no vector register at all, and
 * tests/tramp_regs.py checks every instruction they reach in the linked
 * libfdr-plt.so.
 */
#include <errno.h>
#include <stddef.h>
#include <signal.h>
#include <stdlib.h>
#include <unistd.h>

#include "fdr.h"
#include "fdr_inline.h"
#include "fdr_thread_asm.h"
#include "plt_args.h"
#include "plt_hook.h"
#include "plt_shadow_asm.h"
#include "vstate_call.h"
#include "xray_xstate.h"

struct shadow_entry {
	uintptr_t *slot;	/* where the caller's return address lives */
	uintptr_t ret;		/* the caller's return address */
	uintptr_t hook;		/* what the slot holds instead: fdr__plt_return,
				 * or fdr__patch_return for a patched function */
	int32_t fid;
	bool unhooked;		/* the slot holds ret again (an exception) */
};

struct shadow {
	uint32_t depth;
	uint32_t busy;		/* fdr's own work on this thread (plt_hook.h) */
	struct shadow_entry e[SHADOW_MAX];
};

/* patch_tramp_x86_64.S reads and pushes entries too: by name, at the
 * offsets of plt_shadow_asm.h. */
__thread struct shadow fdr__plt_shadow
	__attribute__((tls_model("initial-exec"), visibility("hidden")));

FDR_ASM_IS(PLT_SYM_SIZE, sizeof(struct fdr_plt_sym));
FDR_ASM_IS(PLT_SYM_TARGET, offsetof(struct fdr_plt_sym, target));
FDR_ASM_IS(PLT_SYM_FID, offsetof(struct fdr_plt_sym, fid));
FDR_ASM_IS(PLT_SYM_CATCHES, offsetof(struct fdr_plt_sym, catches));
FDR_ASM_IS(PLT_SYM_KEEPS_ALL, offsetof(struct fdr_plt_sym, keeps_all));
/* One 2-byte compare with 1 is keeps_all && !keeps_ret. */
FDR_ASM_IS(PLT_SYM_KEEPS_ALL + 1, offsetof(struct fdr_plt_sym, keeps_ret));
FDR_ASM_IS(sizeof(bool), 1);
FDR_ASM_IS(SHADOW_DEPTH, offsetof(struct shadow, depth));
FDR_ASM_IS(SHADOW_BUSY, offsetof(struct shadow, busy));
FDR_ASM_IS(SHADOW_E, offsetof(struct shadow, e));
FDR_ASM_IS(1 << SHADOW_E_SHIFT, sizeof(struct shadow_entry));
FDR_ASM_IS(SHADOW_E_SLOT, offsetof(struct shadow_entry, slot));
FDR_ASM_IS(SHADOW_E_RET, offsetof(struct shadow_entry, ret));
FDR_ASM_IS(SHADOW_E_HOOK, offsetof(struct shadow_entry, hook));
FDR_ASM_IS(SHADOW_E_FID, offsetof(struct shadow_entry, fid));
FDR_ASM_IS(SHADOW_E_UNHOOKED, offsetof(struct shadow_entry, unhooked));

#define barrier() __asm__ __volatile__("" ::: "memory")

static bool on_altstack(void)
{
	stack_t ss;

	return sigaltstack(NULL, &ss) == 0 && (ss.ss_flags & SS_ONSTACK);
}

/* fdr_enter/fdr_exit(fid) keeping the caller's and callee's vector
 * registers: the fast path uses none, the general path is wrapped. */
void fdr__plt_busy_enter(void)
{
	fdr__plt_shadow.busy++;
	barrier();
}

void fdr__plt_busy_leave(void)
{
	barrier();
	fdr__plt_shadow.busy--;
}

/* The general path may call libc (a new buffer): with --nest-libcall, a
 * malloc interposed by a hooked library would come back here. */
static void record_enter(int32_t fid)
{
	if (!fdr__fast_fn(FDR_FN_ENTER, fid)) {
		fdr__plt_busy_enter();
		fdr__vstate_call(fdr_enter, fid);
		fdr__plt_busy_leave();
	}
}

static void record_exit(int32_t fid)
{
	if (!fdr__fast_fn(FDR_FN_EXIT, fid)) {
		fdr__plt_busy_enter();
		fdr__vstate_call(fdr_exit, fid);
		fdr__plt_busy_leave();
	}
}

/* An entry or exit under -A/-R ($FDR_PLT_ARGS): plt_args.c finds the
 * spec by name and copies strings, so all of it keeps the vector state. */
static void record_args(void (*fn)(void *), int32_t fid, const char *name,
			const uint64_t *regs, uintptr_t *slot)
{
	struct fdr__plt_args_call call = {
		.fid = fid, .name = name, .regs = regs, .ret_slot = slot,
	};

	fdr__plt_busy_enter();
	fdr__vstate_call_ptr(fn, &call);
	fdr__plt_busy_leave();
}

/*
 * Under -A/-R: a call whose spec is known and needs no string (nor, at
 * the exit, a return value) is recorded by the fast path, as without
 * arguments; the rest (a first call, a string, a return value, a full
 * buffer) by the general path.
 */
static void record_enter_args(int32_t fid, const char *name, const uint64_t *regs,
			      uintptr_t *slot)
{
	const struct fdr__xray_fn_spec *f;
	uint64_t v[FDR_ENTER_ARGS_MAX];

	if (fdr__plt_args_known(fid, &f)) {
		if (!f) {
			record_enter(fid);
			return;
		}
		if (!f->has_str && regs) {
			for (unsigned i = 0; i < f->n; i++)
				v[i] = fdr__plt_args_value(f->arg[i].slot, regs, slot);
			if (fdr__fast_enter_args(fid, v, f->n))
				return;
		}
	}
	record_args(fdr__plt_args_enter, fid, name, regs, slot);
}

static void record_exit_args(int32_t fid, const uint64_t *regs, uintptr_t *slot)
{
	const struct fdr__xray_fn_spec *f;

	if (fdr__plt_args_known(fid, &f) && (!f || !f->ret || !regs))
		record_exit(fid);
	else
		record_args(fdr__plt_args_exit, fid, NULL, regs, slot);
}

/* Close the entries above index keep (their frames are gone). */
static void close_above(struct shadow *sh, uint32_t keep)
{
	while (sh->depth > keep) {
		uint32_t top = sh->depth - 1;

		record_exit(sh->e[top].fid);
		barrier();
		sh->depth = top;
	}
}

/* A call with its return address at slot: entries at or below it on
 * this stack belong to frames a longjmp or exception left.  An entry at
 * slot itself is over on any stack (its function tail-called this one,
 * or its frame is gone: a live frame keeps its return slot), so the
 * common case, one tail call, is closed without asking the kernel
 * whether a signal handler runs on its own stack. */
static void drop_dead(struct shadow *sh, uintptr_t *slot)
{
	uint32_t keep = sh->depth;

	while (keep > 0 && sh->e[keep - 1].slot <= slot)
		keep--;
	if (keep == sh->depth - 1 && sh->e[keep].slot == slot)
		close_above(sh, keep);
	else if (keep != sh->depth && !on_altstack())
		close_above(sh, keep);
}

static void __attribute__((noreturn)) lost(void);

static intptr_t errno_offset;
uintptr_t fdr__plt_own_lo, fdr__plt_own_len;

static char *thread_pointer(void)
{
	char *tp;

	__asm__("mov %%fs:0, %0" : "=r"(tp));
	return tp;
}

/* Also a constructor: fdr-cc --patchable's runtime (pfe_start.c) does
 * not call it, and its hooks need errno's offset as well. */
__attribute__((constructor)) void fdr__plt_shadow_init(void)
{
	errno_offset = (char *)&errno - thread_pointer();
	fdr__xstate_init();
	fdr__plt_args_load();
}

static int *errno_at(void)
{
	return (int *)(thread_pointer() + errno_offset);
}

/* A return address the hooks put there: a hooked call's own slot. */
static inline __attribute__((always_inline)) bool is_hook(uintptr_t r)
{
	return r == (uintptr_t)fdr__plt_return || r == (uintptr_t)fdr__patch_return;
}

/*
 * The caller's real return address.  A patched function that tail-calls
 * another (jmp, not call: patch_hook.h) hands it the slot it hooked: the
 * real address is the hooking entry's, which drop_dead then closes, as
 * XRay's tail-exit sled closes the caller.
 */
static uintptr_t real_ret(const struct shadow *sh, const uintptr_t *slot)
{
	if (!is_hook(*slot))
		return *slot;
	for (uint32_t i = sh->depth; i > 0; i--)
		if (sh->e[i - 1].slot == slot)
			return sh->e[i - 1].ret;
	lost();
}

uintptr_t fdr__plt_real_return(const uintptr_t *slot)
{
	const struct shadow *sh = &fdr__plt_shadow;

	if (!is_hook(*slot))
		return *slot;
	for (uint32_t i = sh->depth; i > 0; i--)
		if (sh->e[i - 1].slot == slot)
			return sh->e[i - 1].ret;
	return *slot;
}

/*
 * A call made by fdr's code linked into the executable (plt_self.c), by
 * its return address.  The trampolines are fdr's code too: a library
 * function that tail-calls another (--nest-libcall) hands it the hooked
 * slot of its own call, holding fdr__plt_return, and that call is the
 * program's.
 */
static bool fdr_own_call(const uintptr_t *slot)
{
	uintptr_t r = *slot;

	return r - fdr__plt_own_lo < fdr__plt_own_len && !is_hook(r);
}

/* dlsym, dlvsym (keeps_ret): an Enter and its Exit, the slot untouched. */
static uintptr_t record_at_once(const struct fdr_plt_sym *s, int err)
{
	record_enter(s->fid);
	record_exit(s->fid);
	*errno_at() = err;
	return s->target;
}

uintptr_t fdr__plt_enter(uintptr_t index, uintptr_t *slot)
{
	return fdr__plt_enter_regs(index, slot, NULL);
}

uintptr_t fdr__plt_enter_regs(uintptr_t index, uintptr_t *slot, const uint64_t *regs)
{
	const struct fdr_plt_sym *s = &fdr__plt_syms[index];
	struct shadow *sh = &fdr__plt_shadow;
	struct shadow_entry *e;
	uintptr_t ret;
	int err;

	if (!s->fid || fdr_own_call(slot) || sh->busy)
		return s->target;	/* not recorded, or fdr's own call */
	err = *errno_at();
	if (s->keeps_ret)
		return record_at_once(s, err);
	if (s->catches)		/* the catcher's calls are over (plt_unwind.c) */
		fdr__plt_rehook_returns((uintptr_t)slot + sizeof(uintptr_t));
	ret = real_ret(sh, slot);
	if (sh->depth && sh->e[sh->depth - 1].slot <= slot)
		drop_dead(sh, slot);
	if (sh->depth < SHADOW_MAX) {
		e = &sh->e[sh->depth];
		e->slot = slot;
		e->ret = ret;
		e->hook = s->keeps_all ? (uintptr_t)fdr__patch_return : (uintptr_t)fdr__plt_return;
		e->fid = s->fid;
		e->unhooked = false;
		barrier();	/* a signal handler's calls push above it */
		sh->depth++;
		barrier();
		*slot = e->hook;
		if (fdr__plt_args_on)
			record_enter_args(s->fid, s->name, regs, slot);
		else
			record_enter(s->fid);
	}
	*errno_at() = err;
	return s->target;
}

static void __attribute__((noreturn)) lost(void)
{
	static const char msg[] = "fdr: library-call tracing lost a return "
		"address (a stack switched by the program?); rerun with "
		"fdr record --no-libcall\n";

	if (write(2, msg, sizeof(msg) - 1) < 0)
		abort();
	abort();
}

uintptr_t fdr__plt_exit(uintptr_t rsp)
{
	return fdr__plt_exit_regs(rsp, NULL);
}

uintptr_t fdr__plt_exit_regs(uintptr_t rsp, const uint64_t *regs)
{
	struct shadow *sh = &fdr__plt_shadow;
	uintptr_t *slot = (uintptr_t *)(rsp - sizeof(uintptr_t));
	uint32_t i = sh->depth;
	uintptr_t ret;
	int err = *errno_at();

	while (i > 0 && sh->e[i - 1].slot != slot)
		i--;
	if (i == 0)
		lost();
	close_above(sh, i);	/* frames a longjmp left, above this one */
	ret = sh->e[i - 1].ret;
	if (fdr__plt_args_on)
		record_exit_args(sh->e[i - 1].fid, regs, slot);
	else
		record_exit(sh->e[i - 1].fid);
	barrier();
	sh->depth = i - 1;
	*errno_at() = err;
	return ret;
}

__thread bool fdr__plt_unwinding __attribute__((tls_model("initial-exec")));

void fdr__plt_unhook_returns(void)
{
	struct shadow *sh = &fdr__plt_shadow;

	fdr__plt_unwinding = sh->depth > 0;

	for (uint32_t i = sh->depth; i > 0; i--) {
		struct shadow_entry *e = &sh->e[i - 1];

		if (!e->unhooked && *e->slot == e->hook)
			*e->slot = e->ret;
		e->unhooked = true;
	}
}

void fdr__plt_close_below(uintptr_t limit)
{
	struct shadow *sh = &fdr__plt_shadow;
	uint32_t keep = sh->depth;

	while (keep > 0 && (uintptr_t)sh->e[keep - 1].slot < limit)
		keep--;
	close_above(sh, keep);
}

void fdr__plt_rehook_returns(uintptr_t rsp)
{
	struct shadow *sh = &fdr__plt_shadow;

	fdr__plt_unwinding = false;
	fdr__plt_close_below(rsp);
	for (uint32_t i = 0; i < sh->depth; i++) {
		struct shadow_entry *e = &sh->e[i];

		if (e->unhooked && *e->slot == e->ret)
			*e->slot = e->hook;
		e->unhooked = false;
	}
}
