// SPDX-License-Identifier: MIT
/* filter_opts.c - parse the filter options (filter_opts.h). */
#include <errno.h>
#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include "array_grow.h"
#include "filter_opts.h"

/* uftrace's rule: a pattern without one of these is a plain name. */
#define REGEX_CHARS ".?*+-^$|()[]{}"

static const struct { const char *name; uint64_t ns; } units[] = {
	{ "ns", 1 }, { "nsec", 1 }, { "us", 1000 }, { "usec", 1000 },
	{ "ms", 1000000 }, { "msec", 1000000 }, { "s", 1000000000 },
	{ "sec", 1000000000 }, { "m", 60000000000ull }, { "min", 60000000000ull },
};

/* DIGITS[.DIGITS]UNIT; *has_unit says whether a unit was given. */
static int parse_time(const char *s, uint64_t *ns, bool *has_unit)
{
	uint64_t whole = 0, frac = 0, scale = 1, mul = 1;
	const char *p = s;

	if (*p < '0' || *p > '9')
		return -1;
	for (; *p >= '0' && *p <= '9'; p++) {
		if (whole > UINT64_MAX / 10 - 10)
			return -1;
		whole = whole * 10 + (uint64_t)(*p - '0');
	}
	if (*p == '.')
		for (p++; *p >= '0' && *p <= '9'; p++)
			if (scale < 1000000000000ull) {	/* finer than a ps is noise */
				frac = frac * 10 + (uint64_t)(*p - '0');
				scale *= 10;
			}
	*has_unit = *p != 0;
	if (*has_unit) {
		size_t i = 0, n = sizeof(units) / sizeof(units[0]);

		while (i < n && strcasecmp(p, units[i].name))
			i++;
		if (i == n)
			return -1;
		mul = units[i].ns;
	}
	if (whole > UINT64_MAX / mul)
		return -1;
	*ns = whole * mul + (uint64_t)((unsigned __int128)frac * mul / scale);
	return 0;
}

int filter_parse_duration(const char *s, uint64_t *ns)
{
	bool unit;

	return parse_time(s, ns, &unit);
}

/* One end of -r: an elapsed time (with a unit) from the first record, or
 * a timestamp SEC[.NSEC] on the log's clock; empty: open. */
static int range_end(const char *s, size_t len, bool *elapsed, uint64_t *ns, uint64_t open)
{
	char buf[64];
	uint64_t v;

	if (len == 0) {
		*elapsed = false;
		*ns = open;
		return 0;
	}
	if (len >= sizeof(buf))
		return -1;
	memcpy(buf, s, len);
	buf[len] = 0;
	if (parse_time(buf, &v, elapsed))
		return -1;
	if (!*elapsed) {	/* SEC.NSEC: the digits are seconds */
		bool unit;

		snprintf(buf + len, sizeof(buf) - len, "s");
		if (parse_time(buf, &v, &unit))
			return -1;
	}
	*ns = v;
	return 0;
}

static int parse_range(struct filter_opts *f, const char *arg, const char *who)
{
	const char *tilde = strchr(arg, '~');

	if (!tilde || range_end(arg, (size_t)(tilde - arg), &f->range_elapsed[0], &f->range_ns[0], 0) ||
	    range_end(tilde + 1, strlen(tilde + 1), &f->range_elapsed[1], &f->range_ns[1], UINT64_MAX)) {
		fprintf(stderr, "%s: -r %s: expected START~END, each an elapsed time with a "
			"unit (40us, 1.5ms, 2s) or a timestamp SEC.NSEC, either end empty "
			"for open (-r 40us~)\n", who, arg);
		return 2;
	}
	f->range = true;
	return 0;
}

static int parse_tids(struct filter_opts *f, const char *arg, const char *who)
{
	const char *p = arg;
	size_t cap = f->ntids;

	for (;;) {
		char *end;
		unsigned long v;

		errno = 0;
		v = strtoul(p, &end, 10);
		if (*p < '0' || *p > '9' || errno || v > UINT32_MAX || (*end && *end != ',')) {
			fprintf(stderr, "%s: --tid %s: expected thread ids, comma-separated\n",
				who, arg);
			return 2;
		}
		if (array_grow((void **)&f->tids, &cap, f->ntids + 1, sizeof(*f->tids))) {
			fprintf(stderr, "%s: out of memory\n", who);
			return 2;
		}
		f->tids[f->ntids++] = (uint32_t)v;
		if (!*end)
			return 0;
		p = end + 1;
	}
}

/* -T's actions after the '@'. */
static int parse_actions(struct filter_rule *r, const char *s, const char *who, const char *arg)
{
	char *copy = strdup(s), *save = NULL, *a;
	int bad = !copy || !*s;

	for (a = copy ? strtok_r(copy, ",", &save) : NULL; a && !bad; a = strtok_r(NULL, ",", &save)) {
		char *end;

		if (!strncmp(a, "depth=", 6)) {
			unsigned long d = strtoul(a + 6, &end, 10);

			bad = a[6] < '0' || a[6] > '9' || *end || d == 0 || d > 100000;
			r->depth = (unsigned)d;
			r->actions |= TRIG_DEPTH;
		} else if (!strncmp(a, "time=", 5)) {
			bad = filter_parse_duration(a + 5, &r->time_ns) != 0;
			r->actions |= TRIG_TIME;
		} else if (!strcmp(a, "trace_on") || !strcmp(a, "traceon")) {
			r->actions |= TRIG_TRACE_ON;
		} else if (!strcmp(a, "trace_off") || !strcmp(a, "traceoff")) {
			r->actions |= TRIG_TRACE_OFF;
		} else if (!strcmp(a, "finish")) {
			r->actions |= TRIG_FINISH;
		} else {
			bad = 1;
		}
	}
	free(copy);
	if (bad)
		fprintf(stderr, "%s: -T %s: expected FUNC@ACTION[,ACTION...], actions "
			"depth=N, trace_on, trace_off, finish, time=DUR\n", who, arg);
	return bad ? 2 : 0;
}

static int add_rule(struct filter_opts *f, char kind, const char *arg, const char *who)
{
	size_t cap = f->nrules;
	const char *at = kind == 'T' ? strrchr(arg, '@') : NULL;
	struct filter_rule *r;

	if ((kind == 'T' && (!at || at == arg)) || !*arg) {
		fprintf(stderr, "%s: -%c '%s': expected %s\n", who, kind, arg,
			kind == 'T' ? "FUNC@ACTION[,ACTION...]" : "a function name or pattern");
		return 2;
	}
	if (array_grow((void **)&f->rules, &cap, f->nrules + 1, sizeof(*f->rules))) {
		fprintf(stderr, "%s: out of memory\n", who);
		return 2;
	}
	r = &f->rules[f->nrules];
	memset(r, 0, sizeof(*r));
	r->kind = kind;
	r->pattern = at ? strndup(arg, (size_t)(at - arg)) : strdup(arg);
	if (!r->pattern) {
		fprintf(stderr, "%s: out of memory\n", who);
		return 2;
	}
	f->nrules++;
	return at ? parse_actions(r, at + 1, who, arg) : 0;
}

static int parse_depth(struct filter_opts *f, const char *arg, const char *who)
{
	char *end;
	unsigned long n = strtoul(arg, &end, 10);

	if (*arg < '0' || *arg > '9' || *end || n == 0 || n > 100000) {
		fprintf(stderr, "%s: --depth %s: expected a number from 1 to 100000\n", who, arg);
		return 2;
	}
	f->max_depth = (unsigned)n;
	return 0;
}

int filter_opts_option(struct filter_opts *f, int c, const char *arg, const char *who)
{
	switch (c) {
	case 'F': case 'N': case 'C': case 'T':
		return add_rule(f, (char)c, arg, who);
	case 'D':
		return parse_depth(f, arg, who);
	case 't':
		if (filter_parse_duration(arg, &f->min_ns)) {
			fprintf(stderr, "%s: -t %s: expected a duration: a number with a unit "
				"ns, us, ms, s or m (5us), ns without one\n", who, arg);
			return 2;
		}
		return 0;
	case 'r':
		return parse_range(f, arg, who);
	case FILTER_OPT_TID:
		return parse_tids(f, arg, who);
	case FILTER_OPT_MATCH:
		if (strcmp(arg, "regex") && strcmp(arg, "glob")) {
			fprintf(stderr, "%s: --match %s: expected regex or glob\n", who, arg);
			return 2;
		}
		f->glob = !strcmp(arg, "glob");
		return 0;
	default:
		return 1;
	}
}

int filter_opts_finish(struct filter_opts *f, const char *who)
{
	for (size_t i = 0; i < f->nrules; i++) {
		struct filter_rule *r = &f->rules[i];
		char msg[256];
		int e;

		if (f->glob || !strpbrk(r->pattern, REGEX_CHARS))
			continue;
		r->re = malloc(sizeof(regex_t));
		if (!r->re) {
			fprintf(stderr, "%s: out of memory\n", who);
			return 2;
		}
		e = regcomp(r->re, r->pattern, REG_EXTENDED | REG_NOSUB);
		if (e) {
			regerror(e, r->re, msg, sizeof(msg));
			free(r->re);
			r->re = NULL;
			fprintf(stderr, "%s: -%c %s: not a regular expression: %s (--match glob "
				"takes shell patterns)\n", who, r->kind, r->pattern, msg);
			return 2;
		}
	}
	return 0;
}

bool filter_opts_active(const struct filter_opts *f)
{
	return f->nrules || f->max_depth || f->min_ns || f->ntids || f->range;
}

bool filter_opts_wants_tid(const struct filter_opts *f, uint32_t tid)
{
	for (size_t i = 0; i < f->ntids; i++)
		if (f->tids[i] == tid)
			return true;
	return f->ntids == 0;
}

void filter_opts_free(struct filter_opts *f)
{
	for (size_t i = 0; i < f->nrules; i++) {
		if (f->rules[i].re) {
			regfree(f->rules[i].re);
			free(f->rules[i].re);
		}
		free(f->rules[i].pattern);
	}
	free(f->rules);
	free(f->tids);
	memset(f, 0, sizeof(*f));
}
