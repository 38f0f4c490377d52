/* SPDX-License-Identifier: MIT */
/*
 * name_suggest.h - "close matches: main, mian" for a function name that
 * names nothing: the few names within a small edit distance, for every
 * command that takes names (the reading commands' filters, fdr record -F).
 */
#ifndef FDRLOG_NAME_SUGGEST_H
#define FDRLOG_NAME_SUGGEST_H

#include <stddef.h>

/* The name of candidate i (tmp, of len bytes, may hold it). */
typedef const char *(*name_at_fn)(void *ctx, size_t i, char *tmp, size_t len);

/*
 * Write "; close matches: a, b, c" (at most 3, closest first) into buf,
 * or "" when no candidate of the n is close to want.
 */
void name_suggest(const char *want, name_at_fn name_at, void *ctx, size_t n,
		  char *buf, size_t len);

#endif
