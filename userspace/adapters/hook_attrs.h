/* SPDX-License-Identifier: MIT */
/*
 * hook_attrs.h - attributes for code that runs inside trace hooks.
 *
 * Everything the adapters run from a hook must never be instrumented
 * itself, or a hook would call itself: no_instrument_function for GCC's
 * -finstrument-functions, xray_never_instrument for clang's
 * -fxray-instrument (only clang knows that attribute).
 */
#ifndef FDR_HOOK_ATTRS_H
#define FDR_HOOK_ATTRS_H

#if defined(__has_attribute)
#if __has_attribute(xray_never_instrument)
#define FDR_XRAY_NEVER __attribute__((xray_never_instrument))
#endif
#endif
#ifndef FDR_XRAY_NEVER
#define FDR_XRAY_NEVER
#endif

#define FDR_HOOK __attribute__((no_instrument_function)) FDR_XRAY_NEVER

#endif /* FDR_HOOK_ATTRS_H */
