/* SPDX-License-Identifier: MIT */
/* tap.h - minimal TAP output for fdrd's host tests (plan printed last). */
#ifndef FDRD_TAP_H
#define FDRD_TAP_H

#include <stdbool.h>

/* Print "ok N name" or "not ok N name"; returns cond. */
bool tap_ok(bool cond, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void tap_skip(const char *why, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* A "# " diagnostic line. */
void tap_diag(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Print the plan; returns the exit status (1 if anything failed). */
int tap_done(void);

#endif /* FDRD_TAP_H */
