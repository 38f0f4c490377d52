// SPDX-License-Identifier: MIT
/* tap.c - see tap.h. */
#include <stdarg.h>
#include <stdio.h>
#include "tap.h"

static int tests, failed;
static bool planned;

void tap_plan(int n)
{
	printf("KTAP version 1\n1..%d\n", n);
	fflush(stdout);
	planned = true;
}

static void line(const char *status, const char *suffix, const char *fmt,
		 va_list ap)
{
	printf("%s %d - ", status, ++tests);
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
	char suffix[256];
	va_list ap;

	snprintf(suffix, sizeof(suffix), " # SKIP %s", why);
	va_start(ap, fmt);
	line("ok", suffix, fmt, ap);
	va_end(ap);
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
	if (!planned)
		printf("1..%d\n", tests);
	fflush(stdout);
	return failed ? 1 : 0;
}
