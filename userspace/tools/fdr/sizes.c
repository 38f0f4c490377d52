// SPDX-License-Identifier: MIT
/* sizes.c - sizes and durations on the command line (sizes.h). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "sizes.h"

static int parse_number(const char *s, unsigned long long *v, char **end)
{
	if (!s || *s < '0' || *s > '9')
		return -EINVAL;
	errno = 0;
	*v = strtoull(s, end, 10);
	return errno ? -EINVAL : 0;
}

int fdr__parse_size(const char *s, uint64_t *out)
{
	unsigned long long v;
	unsigned int shift = 0;
	char *end;

	if (parse_number(s, &v, &end))
		return -EINVAL;
	switch (*end) {
	case 'k': case 'K': shift = 10; end++; break;
	case 'm': case 'M': shift = 20; end++; break;
	case 'g': case 'G': shift = 30; end++; break;
	}
	if (shift && (!strcmp(end, "iB") || !strcmp(end, "B")))
		end += strlen(end);
	if (*end || (shift && v > (UINT64_MAX >> shift)))
		return -EINVAL;
	*out = (uint64_t)v << shift;
	return 0;
}

int fdr__parse_duration_us(const char *s, uint64_t *out)
{
	static const struct { const char *unit; uint64_t us; } units[] = {
		{ "", 1 }, { "us", 1 }, { "ms", 1000 }, { "s", 1000000 },
	};
	unsigned long long v;
	char *end;

	if (parse_number(s, &v, &end))
		return -EINVAL;
	for (size_t i = 0; i < sizeof(units) / sizeof(units[0]); i++)
		if (!strcmp(end, units[i].unit) && v <= UINT64_MAX / units[i].us) {
			*out = v * units[i].us;
			return 0;
		}
	return -EINVAL;
}
