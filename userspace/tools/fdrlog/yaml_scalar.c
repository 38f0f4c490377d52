// SPDX-License-Identifier: MIT
/*
 * yaml_scalar.c - LLVM 19's YAML scalar quoting, rule for rule, so that
 * custom event payloads and symbol names come out byte-identical to
 * llvm-xray's (llvm/Support/YAMLTraits.h needsQuotes and isNumeric,
 * YAMLParser.cpp escape).
 */
#include <stdbool.h>
#include "yaml_scalar.h"

struct range { unsigned lo, hi; };
static const struct range printable_ranges[] = {
#include "unicode_printable.inc"
};

/* sys::unicode::isPrintable */
static bool unicode_printable(unsigned cp)
{
	size_t lo = 0, hi = sizeof(printable_ranges) / sizeof(printable_ranges[0]);

	if (cp == 0xAD)
		return true;
	while (lo < hi) {
		size_t mid = (lo + hi) / 2;

		if (cp < printable_ranges[mid].lo)
			hi = mid;
		else if (cp > printable_ranges[mid].hi)
			lo = mid + 1;
		else
			return true;
	}
	return false;
}

static bool eq(const unsigned char *s, size_t n, const char *lit)
{
	return n == strlen(lit) && memcmp(s, lit, n) == 0;
}

static bool is_digit(unsigned char c) { return c >= '0' && c <= '9'; }

static size_t skip_digits(const unsigned char *s, size_t n, size_t i)
{
	while (i < n && is_digit(s[i]))
		i++;
	return i;
}

static bool all_in(const unsigned char *s, size_t n, const char *set)
{
	for (size_t i = 0; i < n; i++)
		if (!s[i] || !strchr(set, s[i]))
			return false;
	return true;
}

/* The float part of isNumeric: [-+]? (\. [0-9]+ | [0-9]+ (\. [0-9]*)?) ([eE] [-+]? [0-9]+)? */
static bool is_decimal(const unsigned char *s, size_t n)
{
	size_t i;

	if (n && s[0] == '.' && (n == 1 || !is_digit(s[1])))
		return false;
	if (n && (s[0] == 'e' || s[0] == 'E'))
		return false;
	i = skip_digits(s, n, 0);
	if (i == n)
		return true;
	if (s[i] == '.') {
		i = skip_digits(s, n, i + 1);
		if (i == n)
			return true;
	}
	if (s[i] != 'e' && s[i] != 'E')
		return false;
	if (++i == n)
		return false;
	if (s[i] == '+' || s[i] == '-')
		if (++i == n)
			return false;
	return skip_digits(s, n, i) == n;
}

/* llvm::yaml::isNumeric */
static bool is_numeric(const unsigned char *s, size_t n)
{
	const unsigned char *tail = s;
	size_t tn = n;

	if (n == 0 || eq(s, n, "+") || eq(s, n, "-"))
		return false;
	if (eq(s, n, ".nan") || eq(s, n, ".NaN") || eq(s, n, ".NAN"))
		return true;
	if (s[0] == '-' || s[0] == '+') {
		tail++;
		tn--;
	}
	if (eq(tail, tn, ".inf") || eq(tail, tn, ".Inf") || eq(tail, tn, ".INF"))
		return true;
	if (n >= 2 && s[0] == '0' && s[1] == 'o')
		return n > 2 && all_in(s + 2, n - 2, "01234567");
	if (n >= 2 && s[0] == '0' && s[1] == 'x')
		return n > 2 && all_in(s + 2, n - 2, "0123456789abcdefABCDEF");
	return is_decimal(tail, tn);
}

static bool is_null_or_bool(const unsigned char *s, size_t n)
{
	static const char *const words[] = {
		"null", "Null", "NULL", "~", "true", "True", "TRUE",
		"false", "False", "FALSE",
	};

	for (size_t i = 0; i < sizeof(words) / sizeof(words[0]); i++)
		if (eq(s, n, words[i]))
			return true;
	return false;
}

static bool is_space(unsigned char c)
{
	return c == ' ' || (c >= '\t' && c <= '\r');
}

static bool is_alnum(unsigned char c)
{
	return is_digit(c) || ((c | 0x20) >= 'a' && (c | 0x20) <= 'z');
}

enum yaml_quoting yaml_needs_quotes(const unsigned char *s, size_t n)
{
	enum yaml_quoting q = YAML_PLAIN;

	if (n == 0)
		return YAML_SINGLE;
	if (is_space(s[0]) || is_space(s[n - 1]) || is_null_or_bool(s, n) ||
	    is_numeric(s, n) || (s[0] && strchr("-?:\\,[]{}#&*!|>'\"%@`", s[0])))
		q = YAML_SINGLE;
	for (size_t i = 0; i < n; i++) {
		unsigned char c = s[i];

		if (is_alnum(c) || (c && strchr("_-^., \t", c)))
			continue;
		if (c == 0x7F || c <= 0x1F || (c & 0x80))
			return YAML_DOUBLE;
		q = YAML_SINGLE;
	}
	return q;
}

/* YAMLParser.cpp decodeUTF8: (code point, length) or length 0 if invalid. */
static unsigned decode_utf8(const unsigned char *p, size_t left, unsigned *cp)
{
	if (left >= 2 && (p[0] & 0xE0) == 0xC0 && (p[1] & 0xC0) == 0x80) {
		*cp = (p[0] & 0x1Fu) << 6 | (p[1] & 0x3Fu);
		if (*cp >= 0x80)
			return 2;
	}
	if (left >= 3 && (p[0] & 0xF0) == 0xE0 && (p[1] & 0xC0) == 0x80 &&
	    (p[2] & 0xC0) == 0x80) {
		*cp = (p[0] & 0x0Fu) << 12 | (p[1] & 0x3Fu) << 6 | (p[2] & 0x3Fu);
		if (*cp >= 0x800 && (*cp < 0xD800 || *cp > 0xDFFF))
			return 3;
	}
	if (left >= 4 && (p[0] & 0xF8) == 0xF0 && (p[1] & 0xC0) == 0x80 &&
	    (p[2] & 0xC0) == 0x80 && (p[3] & 0xC0) == 0x80) {
		*cp = (p[0] & 0x07u) << 18 | (p[1] & 0x3Fu) << 12 |
		      (p[2] & 0x3Fu) << 6 | (p[3] & 0x3Fu);
		if (*cp >= 0x10000 && *cp <= 0x10FFFF)
			return 4;
	}
	return 0;
}

static void out_hex_escape(struct out_buffer *o, char letter, unsigned v, int digits)
{
	static const char hex[] = "0123456789ABCDEF";

	out_char(o, '\\');
	out_char(o, letter);
	for (int i = digits - 1; i >= 0; i--)
		out_char(o, hex[(v >> (4 * i)) & 0xF]);
}

static void out_code_point(struct out_buffer *o, const unsigned char *p, unsigned len,
			   unsigned cp)
{
	if (cp == 0x85)
		out_str(o, "\\N");
	else if (cp == 0xA0)
		out_str(o, "\\_");
	else if (cp == 0x2028)
		out_str(o, "\\L");
	else if (cp == 0x2029)
		out_str(o, "\\P");
	else if (unicode_printable(cp))
		out_bytes(o, p, len);
	else if (cp <= 0xFF)
		out_hex_escape(o, 'x', cp, 2);
	else if (cp <= 0xFFFF)
		out_hex_escape(o, 'u', cp, 4);
	else
		out_hex_escape(o, 'U', cp, 8);
}

/* yaml::escape(S, EscapePrintable = false) */
static void out_escaped(struct out_buffer *o, const unsigned char *s, size_t n)
{
	static const char short_escape[32] = {
		[0] = '0', [7] = 'a', [8] = 'b', [9] = 't', [10] = 'n',
		[11] = 'v', [12] = 'f', [13] = 'r', [27] = 'e',
	};

	for (size_t i = 0; i < n; i++) {
		unsigned char c = s[i];
		unsigned cp, len;

		if (c == '\\' || c == '"') {
			out_char(o, '\\');
			out_char(o, (char)c);
		} else if (c < 0x20 && short_escape[c]) {
			out_char(o, '\\');
			out_char(o, short_escape[c]);
		} else if (c < 0x20) {
			out_hex_escape(o, 'x', c, 2);
		} else if (c & 0x80) {
			len = decode_utf8(s + i, n - i, &cp);
			if (!len) {
				/* LLVM writes U+FFFD and drops the rest. */
				out_str(o, "\xEF\xBF\xBD");
				return;
			}
			out_code_point(o, s + i, len, cp);
			i += len - 1;
		} else {
			out_char(o, (char)c);
		}
	}
}

void yaml_scalar(struct out_buffer *o, const void *str, size_t n)
{
	const unsigned char *s = str;
	size_t from = 0;

	switch (yaml_needs_quotes(s, n)) {
	case YAML_PLAIN:
		out_bytes(o, s, n);
		return;
	case YAML_DOUBLE:
		out_char(o, '"');
		out_escaped(o, s, n);
		out_char(o, '"');
		return;
	case YAML_SINGLE:
		out_char(o, '\'');
		for (size_t i = 0; i < n; i++) {
			if (s[i] != '\'')
				continue;
			out_bytes(o, s + from, i - from + 1);	/* ' becomes '' */
			out_char(o, '\'');
			from = i + 1;
		}
		out_bytes(o, s + from, n - from);
		out_char(o, '\'');
		return;
	}
}
