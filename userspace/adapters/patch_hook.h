/* SPDX-License-Identifier: MIT */
/*
 * patch_hook.h - fdr record -P: patch the entries of an unmodified
 * executable's own functions (Documentation/integrations.md, "Functions
 * of programs not built with fdr-cc").
 *
 * At start-up, in libfdr-plt.so's constructor (before main, before any
 * thread of the program: nothing runs the bytes being written), each
 * selected function's first whole instructions covering 5 bytes are
 * moved (relocated) into a trampoline near the executable and replaced
 * by "jmp rel32" to a stub of its own, so a call of the function is
 * recorded as a hooked library call is (plt_hook.h: its fdr_plt_sym
 * index, fdr__plt_enter, the return address swapped for the shadow
 * stack's, fdr__plt_exit), through trampolines that keep every register
 * (patch_tramp_x86_64.S).  The trampoline then calls the moved
 * instructions in the caller's place, and they jump back behind the
 * patch.
 */
#ifndef FDR_PATCH_HOOK_H
#define FDR_PATCH_HOOK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct dl_phdr_info;

#define FDR_PATCH_ENV		"FDR_PATCH"		/* patterns, one a line */
#define FDR_PATCH_NO_LIBCALL_ENV "FDR_PATCH_NO_LIBCALL"	/* "1": no GOT hooks */
#define FDR_PATCH_JMP_LEN	5
#define FDR_PATCH_CODE_MAX	80	/* moved instructions + jmp back */

/* Why a function is left alone; each is counted (the coverage file). */
enum fdr_patch_why {
	FDR_PATCH_OK,
	FDR_PATCH_TOO_SHORT,	/* fewer bytes than the jmp, or no size */
	FDR_PATCH_UNDECODABLE,	/* capstone stops inside it */
	FDR_PATCH_JUMP_INTO,	/* a branch to the bytes the jmp replaces */
	FDR_PATCH_INDIRECT,	/* an indirect jump: a table may hit them */
	FDR_PATCH_UNMOVABLE,	/* a first instruction that cannot be moved */
	FDR_PATCH_NO_ROOM,	/* no trampoline memory within 2 GiB */
	FDR_PATCH_READ_ONLY,	/* mprotect refused to make the text writable */
	FDR_PATCH_ENTRY,	/* the ELF entry (_start): jumped to, no return
				 * address on its stack, argc instead */
	FDR_PATCH_THREADS,	/* another thread exists: it could run the bytes
				 * being rewritten (patch_alone.c) */
	FDR_PATCH_NOT_NOP,	/* fdr-cc --patchable: the entry's bytes are not
				 * the nop the compiler wrote (pfe_hook.h) */
	FDR_PATCH_NOT_ATOMIC,	/* --patchable while threads run: the nop
				 * straddles an 8-byte word (pfe_hook.h) */
	FDR_PATCH_RUNTIME,	/* a library fdr's runtime runs on, or a function
				 * of a name it calls (patch_libs.c, patch_imports.c) */
	FDR_PATCH_NWHY
};

/* The names the coverage file and fdr record print (patch_why.c). */
extern const char *const fdr__patch_why_name[FDR_PATCH_NWHY];

/* patch_decode.c: the plan for one function. */
struct fdr_patch_plan {
	uintptr_t at;			/* where the jmp goes (after an endbr64) */
	uint32_t len;			/* whole instructions replaced, >= 5 bytes */
	uint32_t code_len;
	uint8_t code[FDR_PATCH_CODE_MAX];	/* to run at the trampoline */
};

/* A function of the executable, at its run-time address. */
struct fdr_patch_func {
	const char *name;
	uintptr_t at;
	size_t size;		/* its symbol's */
	size_t room;		/* bytes up to the next function: size + padding */
};

/* A capstone handle for x86-64 with details, or NULL. */
void *fdr__patch_decoder_open(void);
void fdr__patch_decoder_close(void *dec);

/* Plan the patch of f, whose moved instructions will run at tramp:
 * FDR_PATCH_OK or why not.  A function shorter than the jmp may take
 * the alignment padding (nop, int3) behind it, up to f->room. */
enum fdr_patch_why fdr__patch_plan(void *dec, const struct fdr_patch_func *f, uintptr_t tramp,
				   struct fdr_patch_plan *plan);

/* patch_select.c: which function names of the object at path (the
 * executable when is_main) the FDR_PATCH patterns select: those without
 * @MODULE select in the executable, PATTERN@MODULE in MODULE. */
struct fdr_patch_select;
struct fdr_patch_select *fdr__patch_select_new(const char *patterns, const char *path,
					       bool is_main);
bool fdr__patch_select_none(const struct fdr_patch_select *s);
/* Does a pattern name a module (then libraries are patched)? */
bool fdr__patch_select_has_module(const char *patterns);
bool fdr__patch_selected(const struct fdr_patch_select *s, const char *name);
void fdr__patch_select_free(struct fdr_patch_select *s);

/* patch_main.c: patch the executable's selected functions, append them
 * to fdr__plt_syms (ids are claimed with the library calls'); the number
 * patched.  Writes the coverage file ($FDR_SYMDIR/fdr-patch.<pid>.txt). */
uint32_t fdr__patch_main(void);

/* One loaded object to patch (patch_libs.c: a library's). */
struct fdr_patch_target {
	const struct dl_phdr_info *info;
	const char *path;	/* its file: the symbols, the patterns' module */
	bool is_main;
	enum fdr_patch_why refuse;	/* not FDR_PATCH_OK: refuse every selected
					 * function for that reason */
	unsigned seq;		/* the coverage file's: 0 the executable's */
	bool at_dlopen;
};

/* patch_main.c: patch t's selected functions, as fdr__patch_main the
 * executable's; the number patched.  A library none is selected in
 * leaves no coverage file. */
uint32_t fdr__patch_object(const char *patterns, const struct fdr_patch_target *t);

/* patch_libs.c: does a -P pattern name a library (PATTERN@MODULE)? */
bool fdr__patch_libs_wanted(void);
/* patch_libs.c: patch the libraries loaded at start-up; the number
 * patched.  Before any other fdr__patch_lib*(). */
uint32_t fdr__patch_libs_start(void);
/* patch_libs.c: patch the library of info (refuse as in
 * fdr_patch_target); the number patched. */
uint32_t fdr__patch_lib(const struct dl_phdr_info *info, enum fdr_patch_why refuse,
			bool at_dlopen);
/* patch_libs.c: fdr's runtime runs on it (or the loader, the unwinder). */
bool fdr__patch_lib_excluded(const struct dl_phdr_info *info);

/* patch_imports.c: does fdr's runtime call a function of this name
 * (which a definition in the program or a library would interpose)? */
bool fdr__patch_runtime_imports(const char *name);

/* patch_dlopen.c: from now on, dlopen() patches what it loads and calls
 * the real one as the program would (the runtime is attached). */
void fdr__patch_dlopen_arm(void);

/* patch_alone.c: true when the calling thread is the process's only one. */
bool fdr__patch_alone(void);

/* fdr record -P --no-libcall: patch, but leave the GOT alone. */
bool fdr__patch_no_libcall(void);

#endif /* FDR_PATCH_HOOK_H */
