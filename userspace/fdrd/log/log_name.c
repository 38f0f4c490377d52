// SPDX-License-Identifier: MIT
/* log_name.c - expand the placeholders of a log file name pattern. */
#include <ctype.h>
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include <linux/fdr.h>

#include "log_name.h"

/* Longest name we accept: leaves room for ".threads" and ".tmp" in NAME_MAX. */
#define NAME_LIMIT 230

const char *log_name_reason(uint32_t finalize_reason)
{
	switch (finalize_reason) {
	case FDR_FINALIZE_IOCTL: return "ioctl";
	case FDR_FINALIZE_CRASH: return "crash";
	case FDR_FINALIZE_NONE: return "none";
	case FDR_FINALIZE_TRIGGER: return "trigger";
	}
	return "unknown";
}

const char *log_name_check_pattern(const char *pattern)
{
	if (!*pattern)
		return "the pattern is empty";
	if (strchr(pattern, '/'))
		return "the pattern must be a file name, without '/' (use --output-dir)";
	if (pattern[0] == '.')
		return "the pattern must not start with '.' (fdrd's temporary files do)";
	if (strlen(pattern) > NAME_LIMIT)
		return "the pattern is too long";
	return NULL;
}

/* The value of placeholder name (len bytes), or NULL if it is none. */
static const char *expand_one(const char *name, size_t len,
			      const struct log_name_vars *v, char *buf, size_t buflen)
{
	struct tm tm;

	if (len == 9 && !memcmp(name, "timestamp", 9)) {
		gmtime_r(&v->when, &tm);
		strftime(buf, buflen, "%Y%m%dT%H%M%SZ", &tm);
	} else if (len == 3 && !memcmp(name, "seq", 3)) {
		snprintf(buf, buflen, "%llu", (unsigned long long)v->seq);
	} else if (len == 10 && !memcmp(name, "generation", 10)) {
		snprintf(buf, buflen, "%u", v->generation);
	} else if (len == 6 && !memcmp(name, "reason", 6)) {
		snprintf(buf, buflen, "%s", log_name_reason(v->finalize_reason));
	} else if (len == 3 && !memcmp(name, "pid", 3)) {
		snprintf(buf, buflen, "%d", v->pid);
	} else {
		return NULL;
	}
	return buf;
}

int log_name_expand(const char *pattern, const struct log_name_vars *v,
		    char *out, size_t outlen)
{
	size_t o = 0;

	for (const char *p = pattern; *p;) {
		const char *close = *p == '<' ? strchr(p, '>') : NULL;
		char value[64];
		const char *s = close ? expand_one(p + 1, (size_t)(close - p - 1), v,
						   value, sizeof(value)) : NULL;
		size_t n = s ? strlen(s) : 1;

		if (!s)
			s = p;
		if (o + n >= outlen || o + n > NAME_LIMIT)
			return -ENAMETOOLONG;
		memcpy(out + o, s, n);
		o += n;
		p = s == p ? p + 1 : close + 1;
	}
	out[o] = '\0';
	return 0;
}

/* The placeholder at p (after '<', len bytes before '>'): 0 none, else its kind. */
enum ph { PH_NONE, PH_TIMESTAMP, PH_NUMBER, PH_REASON };

static enum ph placeholder(const char *name, size_t len)
{
	if (len == 9 && !memcmp(name, "timestamp", 9))
		return PH_TIMESTAMP;
	if ((len == 3 && !memcmp(name, "seq", 3)) ||
	    (len == 10 && !memcmp(name, "generation", 10)) ||
	    (len == 3 && !memcmp(name, "pid", 3)))
		return PH_NUMBER;
	if (len == 6 && !memcmp(name, "reason", 6))
		return PH_REASON;
	return PH_NONE;
}

static bool match_from(const char *p, const char *s, int depth)
{
	static const char *const reasons[] = { "ioctl", "crash", "none", "trigger", "unknown" };

	if (depth > 32)
		return false;	/* a pattern of NAME_LIMIT bytes has fewer placeholders */
	for (; *p; p++, s++) {
		const char *close = *p == '<' ? strchr(p, '>') : NULL;
		enum ph ph = close ? placeholder(p + 1, (size_t)(close - p - 1)) : PH_NONE;

		if (ph == PH_TIMESTAMP) {	/* 20261130T051700Z */
			for (int i = 0; i < 16; i++)
				if (i == 8 ? s[i] != 'T' : i == 15 ? s[i] != 'Z' :
				    !isdigit((unsigned char)s[i]))
					return false;
			p = close;
			s += 15;
			continue;
		}
		if (ph == PH_NUMBER) {
			size_t n = 0;

			while (isdigit((unsigned char)s[n]))
				n++;
			for (size_t k = n; k > 0; k--)
				if (match_from(close + 1, s + k, depth + 1))
					return true;
			return false;
		}
		if (ph == PH_REASON) {
			for (size_t i = 0; i < sizeof(reasons) / sizeof(reasons[0]); i++) {
				size_t n = strlen(reasons[i]);

				if (!strncmp(s, reasons[i], n) &&
				    match_from(close + 1, s + n, depth + 1))
					return true;
			}
			return false;
		}
		if (*s != *p)
			return false;
	}
	return *s == '\0';
}

bool log_name_matches(const char *pattern, const char *name)
{
	return match_from(pattern, name, 0);
}
