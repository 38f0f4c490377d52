/* SPDX-License-Identifier: MIT */
/*
 * plt_hook.h - library-call tracing: the preloaded runtime
 * (libfdr-plt.so) points the executable's GOT entries of library
 * functions at per-symbol stubs, records the entry, swaps the return
 * address for a return trampoline backed by a per-thread shadow stack,
 * records the exit (Documentation/integrations.md, "Library calls").
 */
#ifndef FDR_PLT_HOOK_H
#define FDR_PLT_HOOK_H

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>

/* One hooked library function, by the name the executable imports. */
struct fdr_plt_sym {
	uintptr_t target;	/* where the loader bound it; a patched
				 * function's moved first instructions */
	int32_t fid;		/* its id in the log, 0: not recorded */
	const char *name;	/* in the executable's .dynstr or .symtab */
	bool catches;		/* __cxa_begin_catch: an exception ended */
	uintptr_t addr;		/* the function, for its id and name: target,
				 * or a patched function's entry (patch_hook.h) */
	bool keeps_all;		/* patched: its return goes through
				 * fdr__patch_return, which keeps every register */
	bool keeps_ret;		/* dlsym, dlvsym: the callee reads its return
				 * address (plt_skip.c): recorded as a call that
				 * ends at once, the address left alone */
	uint32_t module;	/* 1 + its module's index where its id was
				 * claimed (module_lookup.h), 0: none */
};

extern struct fdr_plt_sym *fdr__plt_syms;
extern uint32_t fdr__plt_nsyms;

/* s's line in the sym-map (sym_map.h), by the module its id was
 * claimed in, without asking the loader: a fork child's handlers name
 * the whole table again, and a thread of the parent may have held the
 * loader's lock at the fork (dl_iterate_phdr would wait forever). */
void fdr__plt_sym_name(const struct fdr_plt_sym *s);

/* plt_tramp_x86_64.S */
void fdr__plt_entry(void);
void fdr__plt_return(void);
/* patch_tramp_x86_64.S: the same, keeping every register (patch_hook.h) */
void fdr__patch_entry(void);
void fdr__patch_return(void);

/* plt_shadow.c: called by the trampolines (index, address of the
 * return address) -> target; (caller's rsp after return) -> return address */
uintptr_t fdr__plt_enter(uintptr_t index, uintptr_t *ret_slot);
/* plt_shadow.c: before the first hook runs (errno's TLS offset). */
void fdr__plt_shadow_init(void);
uintptr_t fdr__plt_exit(uintptr_t rsp);
/* Before an exception unwinds: give every frame its real return address
 * back; after it is caught: close the frames it left (return slots below
 * rsp), re-hook the rest. */
void fdr__plt_unhook_returns(void);
void fdr__plt_rehook_returns(uintptr_t rsp);
/* Close the pending calls whose return slot is below limit (calls made
 * by a frame whose CFA is limit, or deeper), newest first: before that
 * frame's Exit when a throw or a longjmp leaves it (unwind_frames.c). */
void fdr__plt_close_below(uintptr_t limit);
/* Between the two: an exception is on its way with library calls
 * pending (the --gcc exit hook closes them before its frame's Exit). */
extern __thread bool fdr__plt_unwinding __attribute__((tls_model("initial-exec")));

/* plt_got.c: room for more entries at fdr__plt_syms[fdr__plt_nsyms]
 * (before any hook runs: the array moves); 0 or -1. */
int fdr__plt_syms_reserve(uint32_t more);

/* plt_ids.c: claim the ids of fdr__plt_syms[from...] and name them
 * in the sym-map (at start-up, and under patch_dlopen.c's lock), with
 * the bits of fdr__plt_id_must set (fid_assign.h); in a fork child,
 * name them all again in the child's own sym-map. */
extern uint32_t fdr__plt_id_must;
void fdr__plt_claim_ids(uint32_t from);
void fdr__plt_rename_in_child(void);
void fdr__plt_name_all(void);	/* the same, into the map already open */

/* plt_shadow.c: calls whose return address lies in [lo, lo + len) are
 * fdr's own (the runtime linked into an fdr-cc build, plt_self.c): not
 * recorded.  len 0 (libfdr-plt.so, a library of its own): none. */
extern uintptr_t fdr__plt_own_lo, fdr__plt_own_len;

/* plt_self.c: in an fdr-cc build, when fdr record asks ($FDR_LIBCALL),
 * hook the executable's GOT; ids with the bits of must set.  Call once
 * attached, before the program's threads if it can; child_map_new: a
 * fork handler registered before this one starts the child's sym-map
 * (the --gcc hooks' does). */
#define FDR_LIBCALL_ENV	"FDR_LIBCALL"	/* "1": the executable's calls;
					 * "nest": every library's too */
void fdr__plt_self_start(uint32_t must, bool child_map_new);
/* plt_self.c, --nest-libcall: after the program's dlopen(), dlclose(). */
void fdr__plt_self_dlopen(void);
void fdr__plt_self_dlclose(void);

/* plt_skip.c: never hook this name (returns twice, or not a call);
 * hook it but leave its return address alone (keeps_ret). */
bool fdr__plt_skip(const char *name);
bool fdr__plt_keeps_return(const char *name);

/* plt_shadow.c: fdr's own work on this thread (the recorder's general
 * path, patching and hooking at start-up and at dlopen()): the hooks let
 * the calls it makes through a hooked GOT (a library's, with
 * --nest-libcall) pass unrecorded, so the recorder never records itself
 * nor re-enters itself (a malloc interposed by a hooked library). */
void fdr__plt_busy_enter(void);
void fdr__plt_busy_leave(void);
/* plt_shadow.c: the caller's return address of a hooked call whose
 * return address lives at slot (the slot may hold fdr__plt_return). */
uintptr_t fdr__plt_real_return(const uintptr_t *slot);

/* plt_got.c: hook one object's GOT (the number of slots hooked, and in
 * *unbound those the loader had not bound yet); its entries are
 * appended to fdr__plt_syms (ids unclaimed). */
struct dl_phdr_info;
uint32_t fdr__plt_hook_object(const struct dl_phdr_info *info, uint32_t *unbound);

/* plt_nest.c: --nest-libcall ($FDR_LIBCALL "nest").  Hook the GOTs of
 * the loaded libraries not hooked yet (every one but fdr's own, the
 * loader, libc and the other system libraries plt_nest.c lists, and those
 * fdr's runtime links); the number of slots hooked.  At start-up and
 * after each dlopen(), ids unclaimed.  forget_gone: after a dlclose(),
 * the entries of libraries no longer loaded get id 0 (never named
 * again, e.g. in a fork child's sym-map). */
bool fdr__plt_nest_wanted(void);
/* The objects loaded now (plt_nest.c); a pass given it, once every load
 * under way has ended, hooks only those; NULL: every object (at
 * start-up, and where a lock held across dlopen() serialises the loads:
 * patch_dlopen.c with -P ...@MODULE).  Freed with free(); NULL if no
 * memory.  fdr__plt_nest_pass: the whole pass after a dlopen() no lock
 * was held across (the list, the wait, the hooking; done gets the first
 * new entry, under caller_lock). */
struct fdr_plt_settled;
struct fdr_plt_settled *fdr__plt_nest_list(void);
uint32_t fdr__plt_nest_hook_new(const struct fdr_plt_settled *only);
uint32_t fdr__plt_nest_pass(pthread_mutex_t *caller_lock, void (*done)(uint32_t first));
void fdr__plt_nest_forget_gone(void);

/* plt_detect.c: built with fdr-cc (its own libfdr records)?  The
 * executable; a shared library file (XRay sleds or the --gcc hooks). */
bool fdr__plt_exe_records_itself(void);
bool fdr__plt_lib_records_itself(const char *path);

/* plt_got.c: from now on, the hooked dlopen and dlclose entries of
 * libraries' GOTs (not the executable's) call these instead of what the
 * loader bound: an fdr-cc build's wrappers (dl_lib.c), under
 * --nest-libcall.  libfdr-plt.so interposes both for every object. */
void fdr__plt_route_dl(uintptr_t dlopen_fn, uintptr_t dlclose_fn);

/* plt_got.c: hook the executable's GOT; the number of hooked slots,
 * and in *unbound those left alone because the loader had not bound them. */
uint32_t fdr__plt_hook_main(uint32_t *unbound);

#endif /* FDR_PLT_HOOK_H */
