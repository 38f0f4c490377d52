/* SPDX-License-Identifier: MIT */
/*
 * xray_dso.h - XRay sleds of shared libraries, patched by the mode.
 *
 * clang-19 compiles sleds into a -shared library, but its runtime patches
 * only the executable's (the per-object runtime, -fxray-shared, is LLVM
 * 20's).  The mode finds each loaded library's xray_instr_map itself (the
 * section headers of its file: a -shared link defines no
 * __start_xray_instr_map), gives its functions ids of their own and
 * points its sleds at fdr's trampolines through a stub page within rel32
 * reach of the library.
 *
 * Ids: LLVM 20's packing, (object << 24) | function, function numbered
 * 1, 2, ... in map order as for the executable (object 0).  The log keeps
 * 28 bits of an id, so objects 1 to 15: later ones are not patched (a
 * note says so).  A library keeps its object id, by path, across
 * dlclose() and dlopen().  Each id given is appended to
 * $FDR_SYMDIR/fdr-xray-dso.<pid>.map, "<object>\t<absolute path>", which
 * fdr record turns into names (userspace/tools/fdr/xray_objects.c).
 */
#ifndef FDR_XRAY_DSO_H
#define FDR_XRAY_DSO_H

#include <stddef.h>
#include <stdint.h>

#include "fdr_xray_ids.h"

#define FDR_XRAY_DSO_MAP	"fdr-xray-dso"

/* Where an object's xray_instr_map is in memory. */
struct fdr__xray_dso_map {
	const void *sleds;	/* struct xray_sled[n] */
	size_t n;
	uintptr_t text_lo, text_hi;	/* its executable segments' span */
};

struct dl_phdr_info;

/* Find the map of a loaded object from the section headers of its file,
 * checked against the loaded bytes.  0, -ENOENT (no sleds) or -errno. */
int fdr__xray_dso_find_map(const struct dl_phdr_info *info,
			   struct fdr__xray_dso_map *map);

/* Turn library patching on (the mode started, with sleds patched), then
 * patch what is loaded: every function, or as $FDR_XRAY_DSO_FUNCTIONS
 * says, "only:NAME,..." or "skip:NAME,..." (symbol-table names; fdr
 * record -F/-N with names PROG's map lacks); without it, none when only
 * is 1 ($FDR_XRAY_FUNCTIONS names the executable's ids only). */
void fdr__xray_dso_start(int only);

/* Give id to the executable at path (xray_exec_id.h): no library takes
 * it, and the map file says it.  0, or -1 when a library has it. */
int fdr__xray_dso_reserve(int id, const char *path);

/* Patch the libraries loaded since the last scan, forget the unloaded.
 * Returns how many sleds were patched, or -errno. */
int fdr__xray_dso_scan(void);

/* The id of the patched library function whose entry is at start, or 0
 * (fdr__unwind_fid_at's fallback: the frames a throw or a longjmp() skips
 * in a library get their Exit too).  Lock-free: safe in a handler. */
uint32_t fdr__xray_dso_fid_at(uintptr_t start);

#endif /* FDR_XRAY_DSO_H */
