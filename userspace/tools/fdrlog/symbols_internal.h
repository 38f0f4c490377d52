/* SPDX-License-Identifier: MIT */
/* symbols_internal.h - the table both symbol sources fill. */
#ifndef FDRLOG_SYMBOLS_INTERNAL_H
#define FDRLOG_SYMBOLS_INTERNAL_H

#include "symbols.h"

struct symbol {
	int32_t fid;
	uint64_t address;	/* or module offset */
	char *name;		/* owned; NULL: unknown, printed as @(address) */
};

struct symbols {
	struct symbol *v;	/* sorted by fid after symbols_seal() */
	size_t n, cap;
};

struct symbols *symbols_new(void);
/* Append (takes ownership of name); -1 on out of memory. */
/* A malloc'd copy of name, demangled if it is a C++ name (demangle.c). */
char *symbols_demangled_copy(const char *name);
int symbols_add(struct symbols *s, int32_t fid, uint64_t address, char *name);
/*
 * Sort by fid and drop repeated identical entries (maps of forked
 * processes repeat each other); returns the first fid listed with two
 * different names or addresses, or 0.
 */
int32_t symbols_seal(struct symbols *s);

#endif
