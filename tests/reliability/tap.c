// SPDX-License-Identifier: MIT
/* tap.c - see tap.h.  stdout is flushed after every line: the tests fork,
 * and a child must never inherit (and print again) buffered TAP. */
#include <stdarg.h>
#include <stdio.h>
#include "tap.h"

static int n, failed;

static void line(const char *prefix, const char *suffix, const char *fmt,
		 va_list ap)
{
	printf("%s %d - ", prefix, ++n);
	vprintf(fmt, ap);
	printf("%s\n", suffix);
	fflush(stdout);
}

bool tap_ok(bool cond, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	line(cond ? "ok" : "not ok", "", fmt, ap);
	va_end(ap);
	failed += !cond;
	return cond;
}

void tap_skip(const char *why, const char *fmt, ...)
{
	va_list ap;
	char suffix[256];

	snprintf(suffix, sizeof(suffix), " # SKIP %s", why);
	va_start(ap, fmt);
	line("ok", suffix, fmt, ap);
	va_end(ap);
}

bool tap_todo(bool cond, const char *why, const char *fmt, ...)
{
	va_list ap;
	char suffix[256];

	snprintf(suffix, sizeof(suffix), " # TODO %s", why);
	va_start(ap, fmt);
	line(cond ? "ok" : "not ok", suffix, fmt, ap);
	va_end(ap);
	return cond;
}

void tap_diag(const char *fmt, ...)
{
	va_list ap;

	fputs("# ", stdout);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
	fflush(stdout);
}

int tap_done(void)
{
	printf("1..%d\n", n);
	fflush(stdout);
	return failed ? 1 : 0;
}
