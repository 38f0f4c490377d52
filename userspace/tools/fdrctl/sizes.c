// SPDX-License-Identifier: MIT
/* sizes.c - "64K", "1M", "4096": sizes and counts on the command line. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "fdrctl.h"

/* Binary suffixes K, M, G (also k, m, g); no suffix means bytes. */
int fdrctl_parse_size(const char *s, uint64_t *out)
{
	char *end;
	unsigned long long v;
	unsigned shift = 0;

	if (!s || *s < '0' || *s > '9')
		return -EINVAL;
	errno = 0;
	v = strtoull(s, &end, 10);
	if (errno)
		return -EINVAL;
	switch (*end) {
	case 'k': case 'K': shift = 10; end++; break;
	case 'm': case 'M': shift = 20; end++; break;
	case 'g': case 'G': shift = 30; end++; break;
	}
	if (*end == 'i' || *end == 'B')	/* tolerate KiB / KB spellings */
		end += (*end == 'i' && end[1] == 'B') ? 2 : 1;
	if (*end || (shift && v > (UINT64_MAX >> shift)))
		return -EINVAL;
	*out = (uint64_t)v << shift;
	return 0;
}

/*
 * "10ms", "500us", "2s", "1500ns": a duration in nanoseconds.  Whole
 * numbers only; the unit is required (a bare number could be meant in
 * any of them), except for a bare 0.
 */
int fdrctl_parse_duration(const char *s, uint64_t *ns)
{
	static const struct { const char *unit; uint64_t mul; } units[] = {
		{ "ns", 1 }, { "us", 1000 }, { "ms", 1000000 },
		{ "s", 1000000000 },
	};
	char *end;
	unsigned long long v;

	if (!s || *s < '0' || *s > '9')
		return -EINVAL;
	errno = 0;
	v = strtoull(s, &end, 10);
	if (errno)
		return -EINVAL;
	if (!*end) {
		if (v)
			return -EDOM;	/* a unit is missing */
		*ns = 0;
		return 0;
	}
	for (size_t i = 0; i < sizeof(units) / sizeof(units[0]); i++) {
		if (strcmp(end, units[i].unit))
			continue;
		if (v > UINT64_MAX / units[i].mul)
			return -ERANGE;
		*ns = v * units[i].mul;
		return 0;
	}
	return -EINVAL;
}
