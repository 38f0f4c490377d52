/* SPDX-License-Identifier: MIT */
/*
 * patch_stub.h - the per-function stubs of patched entries, shared by
 * fdr record -P (patch_main.c: the first instructions moved) and fdr-cc
 * --patchable (pfe_patch.c: a 5-byte nop replaced, nothing moved): a
 * mapping within a rel32 of the code, one stub a function that jumps
 * to fdr__patch_entry with the function's index, which calls the
 * function's target (fdr__plt_syms[index].target: its moved code, or
 * the bytes behind the nop) in its caller's place.
 */
#ifndef FDR_PATCH_STUB_H
#define FDR_PATCH_STUB_H

#include <stddef.h>
#include <stdint.h>

#define FDR_PATCH_STUB_SIZE	16

/* size bytes, read-write, from which every byte of [lo, hi) is a rel32
 * away; NULL if no room. */
void *fdr__patch_map_near(uintptr_t lo, uintptr_t hi, size_t size);

/* At p: "push $index; jmp *cell(%rip)" (cell holds fdr__patch_entry,
 * patch_tramp_x86_64.S), the rest of the stub int3. */
void fdr__patch_make_stub(uint8_t *p, uint32_t index, const uintptr_t *cell);

#endif /* FDR_PATCH_STUB_H */
