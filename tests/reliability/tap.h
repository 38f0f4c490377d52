/* SPDX-License-Identifier: MIT */
/* tap.h - TAP on stdout for the reliability tests; diagnostics as "# ". */
#ifndef REL_TAP_H
#define REL_TAP_H

#include <stdbool.h>

bool tap_ok(bool cond, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void tap_skip(const char *why, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* A known bug of another part: "not ok ... # TODO why" does not count as
 * a failure (TAP), and an "ok ... # TODO" says the bug is gone. */
bool tap_todo(bool cond, const char *why, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
void tap_diag(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Prints the plan "1..N" (at the end: the count is only known then) and
 * returns the exit status: 0 when every test passed. */
int tap_done(void);

#endif
