// SPDX-License-Identifier: MIT
/* flag_scan.c - see flag_scan.h. */
#include <string.h>

#include "flag_scan.h"
#include <linux/fdr.h>

__FDR_NO_INSTRUMENT static bool is_flag_space(char c)
{
	return c == ' ' || c == ',' || c == ':' || c == '\n' || c == '\t' ||
	       c == '\r';
}

__FDR_NO_INSTRUMENT static const char *scan_value(const char *s, const char *end,
				       struct flag_item *it)
{
	if (s < end && (*s == '\'' || *s == '"')) {
		const char *close = memchr(s + 1, *s, (size_t)(end - s - 1));

		it->value = s + 1;
		if (!close)
			close = end;
		it->value_len = (size_t)(close - it->value);
		return close < end ? close + 1 : end;
	}
	it->value = s;
	while (s < end && *s && !is_flag_space(*s))
		s++;
	it->value_len = (size_t)(s - it->value);
	return s;
}

__FDR_NO_INSTRUMENT bool flag_next(const char **pos, const char *end,
			struct flag_item *it)
{
	const char *s = *pos;

	while (s < end && *s && is_flag_space(*s))
		s++;
	if (s >= end || !*s)
		return false;
	it->name = s;
	while (s < end && *s && *s != '=' && !is_flag_space(*s))
		s++;
	it->name_len = (size_t)(s - it->name);
	it->value = NULL;
	it->value_len = 0;
	if (s < end && *s == '=')
		s = scan_value(s + 1, end, it);
	*pos = s;
	return true;
}
