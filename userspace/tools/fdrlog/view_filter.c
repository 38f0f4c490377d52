// SPDX-License-Identifier: MIT
/* view_filter.c - filters and short names for replay and flame. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "view_filter.h"

int view_filter_add(const char **list, size_t *n, const char *name)
{
	if (*n == VIEW_MAX_NAMES)
		return -1;
	list[(*n)++] = name;
	return 0;
}

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

bool view_name_matches(const struct symbols *syms, int32_t fid, const char *func)
{
	char tmp[256], idtext[16];

	snprintf(idtext, sizeof(idtext), "%d", fid);
	if (!strcmp(func, idtext) || (func[0] == '#' && !strcmp(func + 1, idtext)))
		return true;
	if (!syms)
		return false;
	if (!strcmp(view_name(syms, fid, tmp, sizeof(tmp)), func))
		return true;
	return !strcmp(symbols_name(syms, fid, tmp, sizeof(tmp)), func);
}

static bool in_list(const char *const *list, size_t n, const struct symbols *syms,
		    int32_t fid)
{
	for (size_t i = 0; i < n; i++)
		if (view_name_matches(syms, fid, list[i]))
			return true;
	return false;
}

bool view_hidden(const struct view_filter *v, const struct symbols *syms, int32_t fid)
{
	return in_list(v->hide, v->nhide, syms, fid);
}

bool view_is_root(const struct view_filter *v, const struct symbols *syms, int32_t fid)
{
	return v->nonly == 0 || in_list(v->only, v->nonly, syms, fid);
}

uint64_t view_ns(uint64_t ticks, uint64_t freq)
{
	return freq ? (uint64_t)((unsigned __int128)ticks * 1000000000u / freq) : ticks;
}
