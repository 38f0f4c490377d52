/* SPDX-License-Identifier: MIT */
/*
 * flag_scan.h - split "name=value name2='v a l'" lists the way the
 * sanitizer flag parser (used by XRay for XRAY_OPTIONS and its modes'
 * configs) does: items separated by ' ', ',', ':', tab, CR or newline;
 * a value may be quoted with '...' or "..." to hold separators, as in
 * target='embedded:NAME'.
 */
#ifndef FDR_FLAG_SCAN_H
#define FDR_FLAG_SCAN_H

#include <stdbool.h>
#include <stddef.h>

struct flag_item {
	const char *name;
	size_t name_len;
	const char *value;	/* NULL if the item has no '=' */
	size_t value_len;
};

/*
 * Scan the next item of [*pos, end).  Returns false at the end; else
 * fills it and advances *pos.  An unterminated quote takes the rest.
 */
bool flag_next(const char **pos, const char *end, struct flag_item *it);

#endif /* FDR_FLAG_SCAN_H */
