// SPDX-License-Identifier: MIT
/* symbols.c - the fid -> name table and llvm-xray's way of naming ids. */
#include <stdio.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include "symbols_internal.h"

struct symbols *symbols_new(void)
{
	return calloc(1, sizeof(struct symbols));
}

int symbols_add(struct symbols *s, int32_t fid, uint64_t address, char *name)
{
	if (s->n == s->cap) {
		size_t cap = s->cap ? s->cap * 2 : 256;
		struct symbol *v = realloc(s->v, cap * sizeof(*v));

		if (!v) {
			free(name);
			return -1;
		}
		s->v = v;
		s->cap = cap;
	}
	s->v[s->n++] = (struct symbol){ fid, address, name };
	return 0;
}

static int cmp_fid(const void *x, const void *y)
{
	const struct symbol *a = x, *b = y;

	return a->fid < b->fid ? -1 : a->fid > b->fid;
}

static bool same_symbol(const struct symbol *a, const struct symbol *b)
{
	return a->address == b->address &&
	       (a->name == b->name || (a->name && b->name && !strcmp(a->name, b->name)));
}

/* Stop sealing at v[i], whose fid has another symbol: the entries not
 * yet looked at join the kept ones, so that each name is freed once. */
static int32_t conflict(struct symbols *s, size_t kept, size_t i)
{
	int32_t fid = s->v[i].fid;

	memmove(&s->v[kept], &s->v[i], (s->n - i) * sizeof(*s->v));
	s->n = kept + (s->n - i);
	return fid;
}

int32_t symbols_seal(struct symbols *s)
{
	size_t kept = 0;

	if (s->n)
		qsort(s->v, s->n, sizeof(*s->v), cmp_fid);
	for (size_t i = 0; i < s->n; i++) {
		if (kept && s->v[kept - 1].fid == s->v[i].fid) {
			if (!same_symbol(&s->v[kept - 1], &s->v[i]))
				return conflict(s, kept, i);
			free(s->v[i].name);
			continue;
		}
		s->v[kept++] = s->v[i];
	}
	s->n = kept;
	return 0;
}

void symbols_free(struct symbols *s)
{
	if (!s)
		return;
	for (size_t i = 0; i < s->n; i++)
		free(s->v[i].name);
	free(s->v);
	free(s);
}

static const struct symbol *find(const struct symbols *s, int32_t fid)
{
	struct symbol key = { .fid = fid };

	return s->n ? bsearch(&key, s->v, s->n, sizeof(*s->v), cmp_fid) : NULL;
}

const char *symbols_name(const struct symbols *s, int32_t fid, char *tmp, size_t tmp_size)
{
	const struct symbol *sym = find(s, fid);

	if (!sym)
		snprintf(tmp, tmp_size, "#%d", fid);
	else if (!sym->name)
		snprintf(tmp, tmp_size, "@(%llx)", (unsigned long long)sym->address);
	else
		return sym->name;
	return tmp;
}

uint64_t symbols_address(const struct symbols *s, int32_t fid)
{
	const struct symbol *sym = find(s, fid);

	return sym ? sym->address : 0;
}
