// SPDX-License-Identifier: MIT
/* filter_match.c - the rules of each function of a log (filter_match.h). */
#include <fnmatch.h>
#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "filter_match.h"
#include "name_suggest.h"
#include "view_filter.h"

#define NAME_MAX_LEN 256

static bool is_call(const struct fdr_event *ev)
{
	return ev->kind <= FDR_EVENT_ENTER_ARG;
}

static int by_fid(const void *a, const void *b)
{
	int32_t x = ((const struct fid_rules *)a)->fid, y = ((const struct fid_rules *)b)->fid;

	return (x > y) - (x < y);
}

static int cmp_i32(const void *a, const void *b)
{
	int32_t x = *(const int32_t *)a, y = *(const int32_t *)b;

	return (x > y) - (x < y);
}

/* Every function id of the log, once each, sorted (4 bytes a record
 * while counting: the rules are per function, not per record). */
static int collect_fids(struct filter_match *m, const struct fdr_trace *t)
{
	int32_t *ids = malloc((t->count + 1) * sizeof(*ids));
	size_t n = 0, u = 0;

	if (!ids)
		return -1;
	for (size_t i = 0; i < t->count; i++)
		if (is_call(&t->events[i]))
			ids[n++] = t->events[i].func_id;
	qsort(ids, n, sizeof(*ids), cmp_i32);
	for (size_t i = 0; i < n; i++)
		if (u == 0 || ids[u - 1] != ids[i])
			ids[u++] = ids[i];
	m->v = calloc(u + 1, sizeof(*m->v));
	for (size_t i = 0; m->v && i < u; i++)
		m->v[i].fid = ids[i];
	m->n = m->v ? u : 0;
	free(ids);
	return m->v ? 0 : -1;
}

/* "#12" or "12" naming fid 12. */
static bool names_id(const char *p, int32_t fid)
{
	char id[16];

	snprintf(id, sizeof(id), "%d", fid);
	return !strcmp(p, id) || (p[0] == '#' && !strcmp(p + 1, id));
}

static bool rule_matches(const struct filter_rule *r, bool glob, const struct symbols *syms,
			 int32_t fid)
{
	char tmp[NAME_MAX_LEN];
	const char *name;

	if (names_id(r->pattern, fid))
		return true;
	name = view_name(syms, fid, tmp, sizeof(tmp));
	if (r->re ? !regexec(r->re, name, 0, NULL, 0)
		  : glob ? !fnmatch(r->pattern, name, 0) : !strcmp(r->pattern, name))
		return true;
	/* the full symbol as llvm-xray prints it, spelled out exactly */
	return syms && !strcmp(symbols_name(syms, fid, tmp, sizeof(tmp)), r->pattern);
}

static void apply_rule(struct fid_rules *fr, const struct filter_rule *r)
{
	switch (r->kind) {
	case 'F': case 'N': fr->fn = r->kind; break;
	case 'C': fr->caller = true; break;
	default:
		fr->actions |= r->actions;
		if (r->actions & TRIG_DEPTH)
			fr->depth = r->depth;
		if (r->actions & TRIG_TIME)
			fr->time_ns = r->time_ns;
	}
}

struct named {
	const struct filter_match *m;
	const struct symbols *syms;
};

static const char *name_of(void *ctx, size_t i, char *tmp, size_t len)
{
	const struct named *nm = ctx;

	return view_name(nm->syms, nm->m->v[i].fid, tmp, len);
}

/* "fdr replay: -F mian: no function of the log matches; close matches: main" */
static void report_unknown(const struct filter_match *m, const struct filter_rule *r,
			   const struct symbols *syms, const char *who)
{
	struct named nm = { m, syms };
	char close[1024];

	name_suggest(r->pattern, name_of, &nm, m->n, close, sizeof(close));
	fprintf(stderr, "%s: -%c %s: no function of the log matches%s%s\n", who, r->kind,
		r->pattern, close, syms ? " (names as replay prints them, a regular expression, "
		"or #id)" : " (no names without the program's symbols: give #id)");
}

int filter_match_build(struct filter_match *m, const struct filter_opts *f,
		       const struct fdr_trace *t, const struct symbols *syms, const char *who)
{
	memset(m, 0, sizeof(*m));
	if (collect_fids(m, t)) {
		if (who)
			fprintf(stderr, "%s: out of memory\n", who);
		return 1;
	}
	for (size_t k = 0; k < f->nrules; k++) {
		bool any = false;

		for (size_t i = 0; i < m->n; i++)
			if (rule_matches(&f->rules[k], f->glob, syms, m->v[i].fid)) {
				apply_rule(&m->v[i], &f->rules[k]);
				any = true;
			}
		if (!any) {
			if (who)
				report_unknown(m, &f->rules[k], syms, who);
			filter_match_free(m);
			return 2;
		}
	}
	return 0;
}

const struct fid_rules *filter_match_find(const struct filter_match *m, int32_t fid)
{
	struct fid_rules key = { .fid = fid };

	return m->n ? bsearch(&key, m->v, m->n, sizeof(*m->v), by_fid) : NULL;
}

void filter_match_free(struct filter_match *m)
{
	free(m->v);
	memset(m, 0, sizeof(*m));
}
