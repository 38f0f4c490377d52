/* SPDX-License-Identifier: MIT */
/*
 * tap.h - TAP/KTAP output for the project's C test programs: "ok N - name",
 * "not ok N - name", "# " diagnostics, all on stdout and flushed line by
 * line (tests fork; a child must never print buffered TAP again).
 * Shared by userspace/lib, userspace/adapters, userspace/fdrd and
 * tests/reliability; build tap.c into each test program.
 */
#ifndef FDR_TESTING_TAP_H
#define FDR_TESTING_TAP_H

#include <stdbool.h>

/* Optional: print the plan first.  Without it tap_done() prints it last. */
void tap_plan(int n);
/* Report one test; returns cond so callers can chain. */
bool tap_ok(bool cond, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
void tap_skip(const char *why, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
void tap_diag(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Exit status: 0 if every test passed. */
int tap_done(void);

/* Inside a bool test function: on failure, say where and why, return false. */
#define CHECK(cond, ...)                                                   \
	do {                                                               \
		if (!(cond)) {                                             \
			tap_diag("%s:%d: %s", __FILE__, __LINE__, #cond);  \
			tap_diag(__VA_ARGS__);                             \
			return false;                                      \
		}                                                          \
	} while (0)

#endif /* FDR_TESTING_TAP_H */
