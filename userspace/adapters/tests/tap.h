/* SPDX-License-Identifier: MIT */
/*
 * tap.h - KTAP output for the adapter tests: "ok N name" / "not ok N name"
 * on stdout, diagnostics as "# ..." lines.
 */
#ifndef ADAPTERS_TAP_H
#define ADAPTERS_TAP_H

#include <stdbool.h>

void tap_plan(int n);
/* Report one test; returns cond so callers can chain. */
bool tap_ok(bool cond, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
void tap_skip(const char *why, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
void tap_diag(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Exit status: 0 if every test passed. */
int tap_done(void);

#endif /* ADAPTERS_TAP_H */
