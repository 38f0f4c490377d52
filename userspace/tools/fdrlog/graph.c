// SPDX-License-Identifier: MIT
/*
 * graph.c - `fdr graph` (graph.h), in uftrace graph's layout:
 *
 *   # TOTAL TIME   FUNCTION
 *      10.293 ms : (1) main
 *      46.626 us :  +-(2) foo
 *      44.360 us :  | (6) loop
 *                :  |
 *      10.138 ms :  +-(1) bar
 *      10.100 ms :    (1) usleep
 *
 * the total time of the calls on each path, their count, and the tree:
 * a node with one callee has it on the next line at its own level (a
 * single path stays flat), one with several opens a level, "+-" before
 * each, "|" down the levels whose callers have more callees to come and a
 * "|" line between callees.
 */
#include <stdbool.h>
#include <stdlib.h>
#include "call_agg.h"
#include "deep_stack.h"
#include "graph.h"
#include "view_filter.h"

struct graph {
	struct out_buffer *o;
	const struct symbols *syms;
	uint64_t freq;
	struct call_agg cg;		/* callees: what the graph prints */
	struct call_agg bt;		/* callers: a path per backtrace */
	int32_t *stack;			/* shown callers of the node walked */
	size_t depth, cap;
	bool *more;			/* per level: more callees to come */
};

static const char *name_of(const struct graph *g, int32_t fid, char *tmp, size_t len)
{
	return view_name(g->syms, fid, tmp, len);
}

/* "    [0] main" ... for the path to bt node end (its fid last). */
static void put_backtrace(struct graph *g, const uint32_t *path, size_t n, unsigned no)
{
	const struct call_agg_node *end = &g->bt.a[path[n - 1]];
	char tmp[256];

	out_printf(g->o, " backtrace #%u: hit %u, time ", no, end->calls);
	view_put_time(g->o, view_ns(end->ticks, g->freq), 3);
	out_char(g->o, '\n');
	for (size_t i = 0; i < n; i++)
		out_printf(g->o, "   [%zu] %s\n", i,
			   name_of(g, g->bt.a[path[i]].fid, tmp, sizeof(tmp)));
}

/* Every path of bt that ends in a call of the function, depth first. */
static unsigned put_backtraces(struct graph *g, uint32_t i, uint32_t *path, size_t n,
			       unsigned no)
{
	path[n++] = i;
	if (g->bt.a[i].calls)
		put_backtrace(g, path + 1, n - 1, no++);
	for (uint32_t c = g->bt.a[i].first_child; c != CALL_NONE; c = g->bt.a[c].next_sibling)
		no = put_backtraces(g, c, path, n, no);
	return no;
}

/* The levels above: "|" where more callees come, else blank. */
static void put_levels(struct graph *g, unsigned levels)
{
	for (unsigned k = 0; k < levels; k++)
		out_str(g->o, g->more[k] ? " | " : "   ");
}

/* The "|" line between two callees: put_levels, trailing blanks cut. */
static void put_gap(struct graph *g, unsigned levels)
{
	unsigned last = levels;

	while (last && !g->more[last - 1])
		last--;
	out_str(g->o, "             : ");	/* as wide as a time and " : " */
	for (unsigned k = 0; k < last; k++)
		out_str(g->o, k + 1 < last ? (g->more[k] ? " | " : "   ") : " |");
	out_char(g->o, '\n');
}

static void put_node(struct graph *g, uint32_t i, const char *name, unsigned level, bool branch)
{
	const struct call_agg_node *a = &g->cg.a[i];
	char tmp[256];
	uint32_t c;

	out_str(g->o, "  ");
	view_put_time(g->o, view_ns(a->ticks, g->freq), 3);
	out_str(g->o, " : ");
	put_levels(g, branch ? level - 1 : level);
	out_printf(g->o, "%s(%u) %s\n", branch ? " +-" : "", a->calls,
		   name ? name : name_of(g, a->fid, tmp, sizeof(tmp)));
	c = a->first_child;
	if (c != CALL_NONE && g->cg.a[c].next_sibling == CALL_NONE) {
		put_node(g, c, NULL, level, false);	/* one callee: no new level */
		return;
	}
	for (; c != CALL_NONE; c = g->cg.a[c].next_sibling) {
		g->more[level] = g->cg.a[c].next_sibling != CALL_NONE;
		put_node(g, c, NULL, level + 1, true);
		if (g->more[level])
			put_gap(g, level + 1);
	}
}

static void put_graph(struct graph *g, uint32_t top, const char *name)
{
	out_str(g->o, "========== FUNCTION CALL GRAPH ==========\n"
		"# TOTAL TIME   FUNCTION\n");
	put_node(g, top, name, 0, false);
}

static int push(struct graph *g, int32_t fid)
{
	if (g->depth == g->cap) {
		size_t cap = g->cap ? g->cap * 2 : 64;
		int32_t *s = realloc(g->stack, cap * sizeof(*s));

		if (!s)
			return -1;
		g->stack = s;
		g->cap = cap;
	}
	g->stack[g->depth++] = fid;
	return 0;
}

/* An outermost call of fid: its callers' path into bt, its callees into cg. */
static int add_func_call(struct graph *g, uint32_t node)
{
	const struct call_node *n = &g->cg.f->nodes[node];
	uint32_t p = 0;

	for (size_t k = 0; k < g->depth && p != CALL_NONE; k++)
		p = call_agg_child(&g->bt, p, g->stack[k]);
	if (p != CALL_NONE)
		p = call_agg_child(&g->bt, p, n->fid);
	if (p == CALL_NONE)
		return -1;
	g->bt.a[p].calls++;
	g->bt.a[p].ticks += n->end - n->start;
	return call_agg_add(&g->cg, 0, node, 0);
}

/* Find fid's outermost shown calls under node (calls of fid inside them
 * are part of their graph). */
static int walk(struct graph *g, uint32_t node, int32_t fid)
{
	const struct call_node *n = &g->cg.f->nodes[node];
	bool shown = g->cg.shown[node] && !(n->flags & CALL_EVENT);
	int r = 0;

	if (shown && n->fid == fid)
		return add_func_call(g, node);
	if (shown && push(g, n->fid))
		return -1;
	for (uint32_t c = n->first_child; c != CALL_NONE && r == 0; c = g->cg.f->nodes[c].next_sibling)
		r = walk(g, c, fid);
	if (shown)
		g->depth--;
	return r;
}

static int func_graph(struct graph *g, const struct call_forest *f, const uint8_t *shown,
		      int32_t fid, const char *log)
{
	char tmp[256];
	uint32_t *path = NULL;
	int r = call_agg_init(&g->cg, f, shown) || call_agg_init(&g->bt, f, shown) ? -1 : 0;

	for (size_t i = 0; i < f->nthreads && r == 0; i++)
		for (uint32_t n = f->threads[i].first_root; n != CALL_NONE && r == 0;
		     n = f->nodes[n].next_sibling)
			r = walk(g, n, fid);
	if (r == 0 && g->cg.a[0].first_child != CALL_NONE) {
		path = malloc((g->bt.n + 1) * sizeof(*path));
		g->more = calloc(g->cg.max_depth + 2, sizeof(*g->more));
		r = path && g->more ? 0 : -1;
	}
	if (r == 0) {
		out_printf(g->o, "# Function Call Graph for '%s' (log: %s)\n",
			   name_of(g, fid, tmp, sizeof(tmp)), log);
		if (g->cg.a[0].first_child == CALL_NONE) {
			out_str(g->o, "# no call of it is shown\n");
		} else {
			out_str(g->o, "=============== BACKTRACE ===============\n");
			put_backtraces(g, 0, path, 0, 0);
			out_char(g->o, '\n');
			put_graph(g, g->cg.a[0].first_child, NULL);
		}
	}
	free(path);
	free(g->more);
	g->more = NULL;
	call_agg_free(&g->bt);
	call_agg_free(&g->cg);
	return r;
}

static int whole_graph(struct graph *g, const struct call_forest *f, const uint8_t *shown,
		       const struct graph_request *req)
{
	int r = call_agg_init(&g->cg, f, shown) ? -1 : call_agg_add_all(&g->cg);

	if (r == 0) {
		g->more = calloc(g->cg.max_depth + 2, sizeof(*g->more));
		r = g->more ? 0 : -1;
	}
	if (r == 0) {
		g->cg.a[0].calls = 1;
		out_printf(g->o, "# Function Call Graph for '%s' (log: %s)\n", req->prog, req->log);
		put_graph(g, 0, req->prog);
	}
	free(g->more);
	g->more = NULL;
	call_agg_free(&g->cg);
	return r;
}

/* What write_graph hands to the walk (deep_stack_run). */
struct graph_job {
	struct graph *g;
	const struct fdr_trace *t;
	const struct call_forest *f;
	const struct filter_opts *filter;
	const struct graph_request *req;
	uint8_t **shown;
};

static int graph_forest(void *ctx)
{
	struct graph_job *j = ctx;
	int r = -1;

	if (view_filter_marks(j->filter, j->t, j->f, j->g->syms, j->shown) == 0) {
		r = j->req->nfids ? 0 : whole_graph(j->g, j->f, *j->shown, j->req);
		for (size_t i = 0; i < j->req->nfids && r == 0; i++) {
			if (i)
				out_char(j->g->o, '\n');
			r = func_graph(j->g, j->f, *j->shown, j->req->fids[i], j->req->log);
		}
	}
	return r;
}

int write_graph(struct out_buffer *o, const struct fdr_trace *t, const struct symbols *syms,
		const struct filter_opts *filter, const struct graph_request *req)
{
	struct graph g = { .o = o, .syms = syms,
			   .freq = fdr_log_get_header(t->log)->cycle_frequency };
	struct call_forest f;
	uint8_t *shown = NULL;
	struct graph_job job = { &g, t, &f, filter, req, &shown };
	int r;

	if (call_forest_build(&f, t))
		return -1;
	r = deep_stack_run(f.max_depth, graph_forest, &job);
	free(g.stack);
	free(shown);
	call_forest_free(&f);
	return r;
}
