// SPDX-License-Identifier: MIT
/* msg.c - one line per message, "fdrd: " on stderr, the daemon facility in syslog. */
#include <stdarg.h>
#include <stdio.h>
#include <syslog.h>

#include "msg.h"

static bool to_syslog;

void msg_use_syslog(bool on)
{
	if (on && !to_syslog)
		openlog("fdrd", LOG_PID, LOG_DAEMON);
	to_syslog = on;
}

static void emit(int prio, const char *fmt, va_list ap)
{
	if (to_syslog) {
		vsyslog(prio, fmt, ap);
		return;
	}
	fputs("fdrd: ", stderr);
	if (prio == LOG_ERR)
		fputs("error: ", stderr);
	else if (prio == LOG_WARNING)
		fputs("warning: ", stderr);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
}

#define DEFINE_MSG(name, prio)                   \
	void name(const char *fmt, ...)          \
	{                                        \
		va_list ap;                      \
		va_start(ap, fmt);               \
		emit(prio, fmt, ap);             \
		va_end(ap);                      \
	}

DEFINE_MSG(msg_error, LOG_ERR)
DEFINE_MSG(msg_warn, LOG_WARNING)
DEFINE_MSG(msg_info, LOG_INFO)
