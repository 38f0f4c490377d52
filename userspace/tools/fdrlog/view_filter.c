// SPDX-License-Identifier: MIT
/* view_filter.c - the short names every view prints. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "out_buffer.h"
#include "view_filter.h"

/* Cut a trailing "(...)" parameter list (and a const/volatile after it). */
static size_t without_params(const char *s, size_t n)
{
	size_t end = n, depth = 0;

	/* after the list: nothing, or cv-qualifiers ("... ) const") */
	while (end > 0 && s[end - 1] != ')')
		end--;
	if (end == 0)
		return n;
	for (size_t i = end; i-- > 0;) {
		if (s[i] == ')')
			depth++;
		else if (s[i] == '(' && --depth == 0)
			return i > 0 ? i : n;
	}
	return n;
}

/* Where the name starts after a return type: the last space outside <>. */
static size_t after_return_type(const char *s, size_t n)
{
	size_t start = 0;
	int depth = 0;

	for (size_t i = 0; i < n; i++) {
		if (s[i] == '<')
			depth++;
		else if (s[i] == '>')
			depth--;
		else if (s[i] == ' ' && depth == 0)
			start = i + 1;
	}
	return start < n ? start : 0;
}

const char *view_name(const struct symbols *syms, int32_t fid, char *tmp, size_t len)
{
	const char *full;
	size_t n, start;

	if (!syms) {
		snprintf(tmp, len, "#%d", fid);
		return tmp;
	}
	full = symbols_name(syms, fid, tmp, len);
	if (full[0] == '@' || full[0] == '#' || !strchr(full, ')'))
		return full;
	n = without_params(full, strlen(full));
	start = after_return_type(full, n);
	snprintf(tmp, len, "%.*s", (int)(n - start), full + start);
	return tmp;
}

uint64_t view_ns(uint64_t ticks, uint64_t freq)
{
	return freq ? (uint64_t)((unsigned __int128)ticks * 1000000000u / freq) : ticks;
}

void view_put_time(struct out_buffer *o, uint64_t ns, int width)
{
	const char *unit = "us";
	uint64_t div = 1000;

	if (ns >= 1000000000ull) {
		unit = width ? " s" : "s";
		div = 1000000000ull;
	} else if (ns >= 1000000ull) {
		unit = "ms";
		div = 1000000ull;
	}
	out_printf(o, "%*llu.%03llu %s", width, (unsigned long long)(ns / div),
		   (unsigned long long)(ns % div * 1000 / div), unit);
}
