/* SPDX-License-Identifier: MIT */
/*
 * symbols.h - function id -> name, from an XRay-instrumented binary
 * (--instr-map, numbered as the XRay runtime numbers its sleds) or from
 * the text id table of the -finstrument-functions adapter (--sym-map).
 */
#ifndef FDRLOG_SYMBOLS_H
#define FDRLOG_SYMBOLS_H

#include <stddef.h>
#include <stdint.h>

struct symbols;

/* 0 on success; else -1 with a message naming the file and the cause. */
int symbols_from_instr_map(struct symbols **out, const char *binary,
			   char *msg, size_t msg_size);
/* One or more sym-map files (npaths >= 1) merged into one table. */
int symbols_from_sym_maps(struct symbols **out, const char *const *paths, size_t npaths,
			  char *msg, size_t msg_size);
void symbols_free(struct symbols *s);

/*
 * The name llvm-xray would print for fid: the symbol, "@(<hex address>)"
 * for an address without one, "#<fid>" for an id not in the map.  tmp
 * (>= 64 bytes) may hold the result.
 */
const char *symbols_name(const struct symbols *s, int32_t fid, char *tmp, size_t tmp_size);

/* Address (instr-map) or module offset (sym-map) of fid, 0 if unknown. */
uint64_t symbols_address(const struct symbols *s, int32_t fid);

#endif
