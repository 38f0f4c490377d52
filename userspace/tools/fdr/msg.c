// SPDX-License-Identifier: MIT
/*
 * msg.c - the message sink of fdrd's flush code (../../fdrd/msg.h) when it
 * runs inside `fdr`: errors and warnings on stderr under fdr's own prefix;
 * fdrd's per-flush information only with -v, since `fdr record` prints
 * one summary line of its own.
 */
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>

#include "msg.h"
#include "record.h"

static const char *prefix = "fdr";
static bool verbose;

void fdr__msg_set_prefix(const char *p)
{
	prefix = p;
}

void fdr__msg_set_verbose(bool on)
{
	verbose = on;
}

void msg_use_syslog(bool on)
{
	(void)on;
}

static void emit(const char *kind, const char *fmt, va_list ap)
{
	fprintf(stderr, "%s: %s", prefix, kind);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
}

#define DEFINE_MSG(name, kind, shown)            \
	void name(const char *fmt, ...)          \
	{                                        \
		va_list ap;                      \
		if (!(shown))                    \
			return;                  \
		va_start(ap, fmt);               \
		emit(kind, fmt, ap);             \
		va_end(ap);                      \
	}

DEFINE_MSG(msg_error, "error: ", true)
DEFINE_MSG(msg_warn, "warning: ", true)
DEFINE_MSG(msg_info, "", verbose)
