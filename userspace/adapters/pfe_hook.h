/* SPDX-License-Identifier: MIT */
/*
 * pfe_hook.h - fdr-cc --patchable's runtime (Documentation/
 * integrations.md, "fdr-cc --patchable").
 *
 * clang's -fpatchable-function-entry=5 puts one 5-byte nop
 * (0f 1f 44 00 xx) at each function's entry and lists its address in
 * the __patchable_function_entries section, whose bounds the linker
 * gives as __start_/__stop___patchable_function_entries.  To record,
 * the runtime writes "jmp rel32" over each nop, to a stub of the
 * function's own (patch_stub.h) that jumps to fdr__patch_entry, which
 * calls the code behind the nop: the -P machinery (patch_hook.h, plt_shadow.c:
 * ids, names, the shadow stack of returns) without its decoder, since
 * nothing is moved.  To stop, the nops are written back.
 *
 * A nop is one instruction: a thread runs all of it or none of it.  So
 * while other threads run, a site whose 5 bytes lie inside one aligned
 * 8-byte word is swapped by one atomic 8-byte store (a thread fetches
 * the old nop or the new jmp, never a mix: the reasoning of XRay's
 * 2-byte store); a site across two words (after an endbr64) waits until
 * the recorder has stopped every thread (fdr__pfe_patch_pending: no
 * stopped thread can be inside an instruction), or is refused when
 * nobody will (counted, FDR_PATCH_NOT_ATOMIC).  Bytes that are not such
 * a nop are never written (FDR_PATCH_NOT_NOP).
 */
#ifndef FDR_PFE_HOOK_H
#define FDR_PFE_HOOK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "patch_coverage.h"

/* Patch the sites whose function patterns selects (NULL: all);
 * live: other threads may be running the program's code (a site across
 * two words is then left pending, and counted as refused).  The sites,
 * their stubs, ids and names are made at the first call and kept for
 * the process's life: a frame entered while patched returns through
 * fdr__patch_return and its shadow entry after the unpatch too.
 * Counts into *cov (may be NULL); returns how many are patched, or
 * -errno with none patched. */
int fdr__pfe_patch(const char *patterns, struct fdr_patch_coverage *cov, bool live);

/* With every other thread stopped: patch the pending sites; how many. */
int fdr__pfe_patch_pending(void);

/* Write the patched sites' nops back; live (other threads running):
 * not those across two words, which stay patched (their calls reach a
 * detached libfdr, recording nothing) until a call with live false. */
void fdr__pfe_unpatch(bool live);

/* After fork, in the child: name every id again in its own sym-map. */
void fdr__pfe_rename(void);

/* pfe_text.c: the executable's text segments. */
#define FDR_PFE_SEGS_MAX	8
struct fdr_pfe_text {
	int n;
	uintptr_t lo[FDR_PFE_SEGS_MAX], hi[FDR_PFE_SEGS_MAX];
	int prot[FDR_PFE_SEGS_MAX];	/* the file's */
};
void fdr__pfe_text_find(struct fdr_pfe_text *t);
/* Does one segment hold [at, at + len)? */
bool fdr__pfe_text_holds(const struct fdr_pfe_text *t, uintptr_t at, size_t len);
/* on: read-write-execute; off: the file's protection again.  0 or -1
 * (a security policy may refuse writable code). */
int fdr__pfe_text_writable(const struct fdr_pfe_text *t, bool on);

#endif /* FDR_PFE_HOOK_H */
