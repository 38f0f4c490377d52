// SPDX-License-Identifier: MIT
/* call_agg.c - calls merged by call path (call_agg.h). */
#include <stdlib.h>
#include "call_agg.h"

static uint32_t agg_new(struct call_agg *g, int32_t fid)
{
	if (g->n == g->cap) {
		size_t cap = g->cap ? g->cap * 2 : 64;
		struct call_agg_node *a = realloc(g->a, cap * sizeof(*a));

		if (!a)
			return CALL_NONE;
		g->a = a;
		g->cap = cap;
	}
	g->a[g->n] = (struct call_agg_node){ fid, 0, 0, CALL_NONE, CALL_NONE, CALL_NONE };
	return (uint32_t)g->n++;
}

int call_agg_init(struct call_agg *g, const struct call_forest *f, const uint8_t *shown)
{
	*g = (struct call_agg){ .f = f, .shown = shown };
	return agg_new(g, 0) == CALL_NONE ? -1 : 0;
}

void call_agg_free(struct call_agg *g)
{
	free(g->a);
	g->a = NULL;
	g->n = g->cap = 0;
}

uint32_t call_agg_child(struct call_agg *g, uint32_t parent, int32_t fid)
{
	uint32_t c, i;

	for (c = g->a[parent].first_child; c != CALL_NONE; c = g->a[c].next_sibling)
		if (g->a[c].fid == fid)
			return c;
	i = agg_new(g, fid);
	if (i == CALL_NONE)
		return CALL_NONE;
	if (g->a[parent].last_child == CALL_NONE)
		g->a[parent].first_child = i;
	else
		g->a[g->a[parent].last_child].next_sibling = i;
	g->a[parent].last_child = i;
	return i;
}

int call_agg_add(struct call_agg *g, uint32_t parent, uint32_t node, unsigned depth)
{
	const struct call_node *n = &g->f->nodes[node];
	uint32_t me;

	if (n->flags & CALL_EVENT)
		return 0;
	if (!g->shown[node]) {	/* hidden: what it holds that is shown, in its place */
		for (uint32_t c = n->first_child; c != CALL_NONE; c = g->f->nodes[c].next_sibling)
			if (call_agg_add(g, parent, c, depth))
				return -1;
		return 0;
	}
	me = call_agg_child(g, parent, n->fid);
	if (me == CALL_NONE)
		return -1;
	g->a[me].ticks += n->end - n->start;
	g->a[me].calls++;
	g->a[parent].ticks += parent == 0 ? n->end - n->start : 0;
	if (depth + 1 > g->max_depth)
		g->max_depth = depth + 1;
	for (uint32_t c = n->first_child; c != CALL_NONE; c = g->f->nodes[c].next_sibling)
		if (call_agg_add(g, me, c, depth + 1))
			return -1;
	return 0;
}

int call_agg_add_all(struct call_agg *g)
{
	for (size_t i = 0; i < g->f->nthreads; i++)
		for (uint32_t n = g->f->threads[i].first_root; n != CALL_NONE;
		     n = g->f->nodes[n].next_sibling)
			if (call_agg_add(g, 0, n, 0))
				return -1;
	return 0;
}
