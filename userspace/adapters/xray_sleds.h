/* SPDX-License-Identifier: MIT */
/*
 * xray_sleds.h - point the patched XRay sleds of the executable at the
 * mode's own lean trampolines (xray_tramp_x86_64.S) instead of
 * compiler-rt's.
 *
 * Done once, by the autostart, after XRay patched the sleds
 * (patch_premain=true).  A later __xray_patch() rewrites the sleds to
 * compiler-rt's trampolines again; __xray_unpatch() disables them as
 * usual: XRay stays in charge of whether sleds are live.
 * $FDR_XRAY_SLEDS=xray leaves compiler-rt's trampolines in place.
 */
#ifndef FDR_XRAY_SLEDS_H
#define FDR_XRAY_SLEDS_H

#include <stdint.h>

/* 1 while the mode records: the trampolines call it; 0: they defer to
 * compiler-rt's trampolines (and so to whatever handler is installed). */
extern volatile uint8_t fdr__xray_fast_on;

/* An entry of the xray_instr_map section (32 bytes on 64-bit). */
struct xray_sled {
	uint64_t address;	/* version >= 2: relative to this field */
	uint64_t function;	/* likewise */
	uint8_t kind;		/* XRayEntryType */
	uint8_t always_instrument;
	uint8_t version;
	uint8_t padding[13];
};

/* The bytes of a sled (LLVM 19, x86-64; xray_sleds.c). */
#define SLED_SIZE	11
#define MOV_R10_SEQ	0xba41	/* 41 ba, little-endian */
#define JMP9_SEQ	0x09eb	/* eb 09 */
#define RET_OPCODE	0xc3
#define CALL_OPCODE	0xe8
#define JMP_OPCODE	0xe9

/* The sled's code address (map version >= 2). */
uint8_t *fdr__xray_sled_address(const struct xray_sled *s);

/* The writable window: one page range at a time, in sled order. */
struct fdr__xray_window {
	uintptr_t lo, hi;	/* [lo, hi) made RWX; lo == hi: none */
	long page;
};

/* Make the pages under [p, p + SLED_SIZE) writable and executable
 * (closing the previous range first); 0 or -errno. */
int fdr__xray_window_cover(struct fdr__xray_window *w, uintptr_t p);
/* Back to read+execute; 0 or -errno. */
int fdr__xray_window_close(struct fdr__xray_window *w);

/* Retarget entry, exit, tail-exit and arg-logging sleds that call
 * compiler-rt's trampolines.  Returns how many were retargeted, or
 * -errno (e.g. when the text cannot be made writable). */
int fdr__xray_sleds_retarget(void);

#endif /* FDR_XRAY_SLEDS_H */
