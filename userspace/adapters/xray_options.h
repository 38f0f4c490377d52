/* SPDX-License-Identifier: MIT */
/*
 * xray_options.h - read XRay's own flags (xray_mode, patch_premain) from
 * $XRAY_OPTIONS.
 *
 * LLVM 19's runtime parses xray_mode but only its built-in modes act on
 * it (each selects itself from its own static initializer); a mode
 * registered by a library is never selected.  So the "fdr" mode reads the
 * flag itself, with the sanitizer flag syntax: name=value items separated
 * by ' ', ',', ':', tab or newline, values optionally in '...' or "...",
 * the last occurrence winning.  Compile-time XRAY_DEFAULT_OPTIONS baked
 * into the runtime are not visible from here.
 */
#ifndef FDR_XRAY_OPTIONS_H
#define FDR_XRAY_OPTIONS_H

#include <stdbool.h>
#include <stddef.h>

/*
 * Copy the value of the last NAME=... in options into value (size bytes,
 * truncated).  Returns false if options has no such item.
 */
bool fdr__xray_options_get(const char *options, const char *name, char *value,
			  size_t size);

/* The sanitizer parser's booleans: true/false, 1/0, yes/no. */
bool fdr__xray_option_is_true(const char *value);

#endif /* FDR_XRAY_OPTIONS_H */
