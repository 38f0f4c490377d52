// SPDX-License-Identifier: MIT
/*
 * options.c - $FDR_OPTIONS, in XRay's flag syntax: "name=value" pairs
 * separated by ':' or spaces.  Known: func_duration_threshold_us (default
 * 5, 0 = keep every call).  Unknown names are reported, not fatal.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "recorder.h"

#define DEFAULT_THRESHOLD_US	5

__FDR_NO_INSTRUMENT static void apply(struct fdr_options *o, const char *name,
			      size_t nlen, const char *val, size_t vlen)
{
	char buf[32], *end;
	unsigned long long v;

	if (nlen == strlen("func_duration_threshold_us") &&
	    !strncmp(name, "func_duration_threshold_us", nlen) &&
	    vlen > 0 && vlen < sizeof(buf)) {
		memcpy(buf, val, vlen);
		buf[vlen] = 0;
		v = strtoull(buf, &end, 10);
		if (!*end && buf[0] != '-') {
			o->threshold_us = v;
			return;
		}
	}
	fprintf(stderr, "libfdr: ignoring FDR_OPTIONS entry '%.*s%s%.*s'\n",
		(int)nlen, name, val ? "=" : "", (int)vlen, val ? val : "");
}

__FDR_NO_INSTRUMENT void fdr__options_parse(struct fdr_options *o, const char *s)
{
	o->threshold_us = DEFAULT_THRESHOLD_US;
	while (s && *s) {
		size_t len = strcspn(s, ": \t");
		const char *eq = memchr(s, '=', len);

		if (len)
			apply(o, s, eq ? (size_t)(eq - s) : len, eq ? eq + 1 : NULL,
			      eq ? len - (size_t)(eq - s) - 1 : 0);
		s += len;
		s += strspn(s, ": \t");
	}
}
