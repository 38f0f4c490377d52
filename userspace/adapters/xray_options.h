/* SPDX-License-Identifier: MIT */
/*
 * xray_options.h - read XRay's own xray_mode flag from $XRAY_OPTIONS.
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
 * Copy the value of the last xray_mode=... in options into mode (size
 * bytes, truncated).  Returns false if options has no xray_mode.
 */
bool fdr_xray_options_mode(const char *options, char *mode, size_t size);

#endif /* FDR_XRAY_OPTIONS_H */
