// SPDX-License-Identifier: MIT
/* tap.c - TAP lines on stdout, diagnostics as "# " lines. */
#include <stdarg.h>
#include <stdio.h>

#include "tap.h"

static int tests, failed;

bool tap_ok(bool cond, const char *fmt, ...)
{
	va_list ap;

	printf("%sok %d - ", cond ? "" : "not ", ++tests);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
	fflush(stdout);
	failed += !cond;
	return cond;
}

void tap_skip(const char *why, const char *fmt, ...)
{
	va_list ap;

	printf("ok %d - ", ++tests);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf(" # SKIP %s\n", why);
	fflush(stdout);
}

void tap_diag(const char *fmt, ...)
{
	va_list ap;

	printf("# ");
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
	fflush(stdout);
}

int tap_done(void)
{
	printf("1..%d\n", tests);
	return failed ? 1 : 0;
}
