// SPDX-License-Identifier: MIT
/* filter_match.c - the rules of each function of a log (filter_match.h). */
#include <fnmatch.h>
#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "filter_match.h"
#include "view_filter.h"

#define NAME_MAX_LEN 256
#define MAX_SUGGEST 3

static bool is_call(const struct fdr_event *ev)
{
	return ev->kind <= FDR_EVENT_ENTER_ARG;
}

static int by_fid(const void *a, const void *b)
{
	int32_t x = ((const struct fid_rules *)a)->fid, y = ((const struct fid_rules *)b)->fid;

	return (x > y) - (x < y);
}

/* Every function id of the log, once each, sorted. */
static int collect_fids(struct filter_match *m, const struct fdr_trace *t)
{
	size_t n = 0;

	m->v = calloc(t->count + 1, sizeof(*m->v));
	if (!m->v)
		return -1;
	for (size_t i = 0; i < t->count; i++)
		if (is_call(&t->events[i]))
			m->v[n++].fid = t->events[i].func_id;
	qsort(m->v, n, sizeof(*m->v), by_fid);
	m->n = 0;
	for (size_t i = 0; i < n; i++)
		if (m->n == 0 || m->v[m->n - 1].fid != m->v[i].fid)
			m->v[m->n++] = m->v[i];
	return 0;
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

/* Levenshtein distance, capped: what "close" means for a typo. */
static size_t distance(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b), row[NAME_MAX_LEN + 1];

	if (la > NAME_MAX_LEN || lb > NAME_MAX_LEN)
		return SIZE_MAX;
	for (size_t j = 0; j <= lb; j++)
		row[j] = j;
	for (size_t i = 1; i <= la; i++) {
		size_t diag = row[0];

		row[0] = i;
		for (size_t j = 1; j <= lb; j++) {
			size_t up = row[j], best = diag + (a[i - 1] != b[j - 1]);

			if (up + 1 < best)
				best = up + 1;
			if (row[j - 1] + 1 < best)
				best = row[j - 1] + 1;
			row[j] = best;
			diag = up;
		}
	}
	return row[lb];
}

/* "fdr replay: -F mian: no function of the log matches; close: main, ..." */
static void report_unknown(const struct filter_match *m, const struct filter_rule *r,
			   const struct symbols *syms, const char *who)
{
	size_t best[MAX_SUGGEST], dist[MAX_SUGGEST], nbest = 0;
	size_t limit = strlen(r->pattern) / 3 + 2;
	char tmp[NAME_MAX_LEN];

	for (size_t i = 0; i < m->n; i++) {
		size_t d = distance(r->pattern, view_name(syms, m->v[i].fid, tmp, sizeof(tmp))), k;

		if (d > limit)
			continue;
		for (k = nbest; k > 0 && dist[k - 1] > d; k--)
			if (k < MAX_SUGGEST) {
				best[k] = best[k - 1];
				dist[k] = dist[k - 1];
			}
		if (k < MAX_SUGGEST) {
			best[k] = i;
			dist[k] = d;
			nbest += nbest < MAX_SUGGEST;
		}
	}
	fprintf(stderr, "%s: -%c %s: no function of the log matches", who, r->kind, r->pattern);
	for (size_t k = 0; k < nbest; k++)
		fprintf(stderr, "%s%s", k ? ", " : "; close matches: ",
			view_name(syms, m->v[best[k]].fid, tmp, sizeof(tmp)));
	fprintf(stderr, "%s\n", syms ? " (names as replay prints them, a regular expression, "
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
