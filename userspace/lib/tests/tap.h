/* SPDX-License-Identifier: MIT */
/* tap.h - TAP output for libfdr's tests: plan, ok/not ok, diagnostics. */
#ifndef FDR_TAP_H
#define FDR_TAP_H

#include <stdbool.h>

void tap_plan(int n);
/* Prints "ok N name" or "not ok N name"; returns cond. */
bool tap_ok(bool cond, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
void tap_skip(const char *why, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* "# ..." diagnostic line (stdout, TAP-safe). */
void tap_diag(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Exit status: 0 if every test passed. */
int tap_done(void);

/* Check inside a test: on failure print a diagnostic and return false. */
#define CHECK(cond, ...)                                                   \
	do {                                                               \
		if (!(cond)) {                                             \
			tap_diag("%s:%d: %s", __FILE__, __LINE__, #cond);  \
			tap_diag(__VA_ARGS__);                             \
			return false;                                      \
		}                                                          \
	} while (0)

#endif
