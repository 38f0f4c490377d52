// SPDX-License-Identifier: MIT
/*
 * flame.c - a flame graph of the log as one self-contained SVG (no style
 * sheet, no external reference): the calls of every thread merged by call
 * path, as flamegraph.pl merges stacks, each frame as wide as the time
 * spent in it (its calls' durations summed), children on top of their
 * caller in order of first call, the root "all" as wide as every thread's
 * top-level calls together (call_agg.h).  Each frame is a <g class="f"> holding a
 * <title> with its name, time and share (viewers show it on hover), its
 * <rect> and its (maybe empty) label.  The inline script of flame_ui.js
 * makes it interactive: zoom, search, the details line.  What the filters
 * hide is left out, and what it holds that they show takes its place
 * (view_filter_marks), as in replay.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "call_agg.h"
#include "convert.h"
#include "deep_stack.h"
#include "view_filter.h"

#define SVG_WIDTH	1200.0
#define MARGIN		10.0
#define FRAME_H		16
#define TOP		40	/* title line, Reset Zoom, Search */
#define BOTTOM		20	/* the details line, the search's share */

/* flame_ui.js as a C string, made by the Makefile. */
static const char flame_ui_js[] =
#include "flame_ui.inc"
	;

struct flame {
	struct call_agg g;
	const struct symbols *syms;
};

static void put_xml_text(struct out_buffer *o, const char *s)
{
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;

		if (c == '&')
			out_str(o, "&amp;");
		else if (c == '<')
			out_str(o, "&lt;");
		else if (c == '>')
			out_str(o, "&gt;");
		else if (c == '"')
			out_str(o, "&quot;");
		else if (c < 0x20 || c >= 0x7f)
			out_char(o, '?');	/* control bytes are not XML 1.0; bytes
						 * >= 0x80 may not be UTF-8, or be
						 * cut mid-character by a label */
		else
			out_char(o, (char)c);
	}
}

/* A warm colour from the name, stable across runs (flamegraph.pl's look). */
static void put_colour(struct out_buffer *o, const char *name)
{
	uint32_t h = 2166136261u;

	for (; *name; name++)
		h = (h ^ (unsigned char)*name) * 16777619u;
	out_printf(o, "rgb(%u,%u,%u)", 205 + h % 50, 80 + (h >> 8) % 130, (h >> 16) % 55);
}

struct frame_pos { double x, w; unsigned depth; };

/* The name, cut with ".." to fit the frame at 7 px a character, or
 * nothing when not even a character and ".." fit (flame_ui.js cuts the same way). */
static void put_label(struct out_buffer *o, const char *name, double x, double y, double w)
{
	size_t room = w >= 6 ? (size_t)((w - 6) / 7) : 0;
	char label[256];

	snprintf(label, sizeof(label), "%s", name);
	if (strlen(label) > room && room >= 3)
		snprintf(label + room - 2, sizeof(label) - room + 2, "..");
	else if (strlen(label) > room)
		label[0] = '\0';
	out_printf(o, "<text x=\"%.2f\" y=\"%.0f\">", x + 3, y + FRAME_H - 4);
	put_xml_text(o, label);
	out_str(o, "</text>");
}

static void put_frame(struct flame *fl, struct out_buffer *o, uint32_t i,
		      const struct frame_pos *p, uint64_t total, uint64_t freq, int height)
{
	char tmp[256];
	const struct call_agg_node *a = &fl->g.a[i];
	const char *name = i == 0 ? "all" : view_name(fl->syms, a->fid, tmp, sizeof(tmp));
	uint64_t ns = view_ns(a->ticks, freq);
	double y = height - MARGIN - BOTTOM - (p->depth + 1) * FRAME_H;

	out_str(o, "<g class=\"f\"><title>");
	put_xml_text(o, name);
	out_printf(o, " (%llu ns, %u calls, %.2f%%)</title><rect x=\"%.2f\" y=\"%.0f\" width=\"%.2f\" height=\"%d\" fill=\"",
		   (unsigned long long)ns, a->calls,
		   total ? 100.0 * (double)a->ticks / (double)total : 0.0,
		   p->x, y, p->w, FRAME_H - 1);
	put_colour(o, name);
	out_str(o, "\"/>");
	put_label(o, name, p->x, y, p->w);
	out_str(o, "</g>\n");
}

static void put_frames(struct flame *fl, struct out_buffer *o, uint32_t i,
		       struct frame_pos p, uint64_t total, uint64_t freq, int height)
{
	double x = p.x;

	put_frame(fl, o, i, &p, total, freq, height);
	for (uint32_t c = fl->g.a[i].first_child; c != CALL_NONE; c = fl->g.a[c].next_sibling) {
		struct frame_pos cp = { x, total ? (SVG_WIDTH - 2 * MARGIN) *
					(double)fl->g.a[c].ticks / (double)total : 0, p.depth + 1 };

		put_frames(fl, o, c, cp, total, freq, height);
		x += cp.w;
	}
}

/* What the script drives: Reset Zoom (hidden until a zoom), Search, the
 * details line and the search's share. */
static void put_controls(struct out_buffer *o, int height)
{
	out_printf(o, "<text id=\"unzoom\" x=\"%.0f\" y=\"24\" opacity=\"0\" cursor=\"pointer\">Reset Zoom</text>\n"
		   "<text id=\"search\" x=\"%.0f\" y=\"24\" text-anchor=\"end\" cursor=\"pointer\">Search</text>\n"
		   "<text id=\"details\" x=\"%.0f\" y=\"%d\"> </text>\n"
		   "<text id=\"matched\" x=\"%.0f\" y=\"%d\" text-anchor=\"end\"></text>\n",
		   MARGIN, SVG_WIDTH - MARGIN, MARGIN, height - (int)MARGIN - 4,
		   SVG_WIDTH - MARGIN, height - (int)MARGIN - 4);
}

static void put_svg(struct flame *fl, struct out_buffer *o, uint64_t freq, const char *title)
{
	int height = TOP + (int)(fl->g.max_depth + 1) * FRAME_H + BOTTOM + (int)MARGIN;
	struct frame_pos root = { MARGIN, SVG_WIDTH - 2 * MARGIN, 0 };

	out_printf(o, "<?xml version=\"1.0\" encoding=\"UTF-8\" standalone=\"yes\"?>\n"
		   "<svg version=\"1.1\" xmlns=\"http://www.w3.org/2000/svg\" width=\"%.0f\" height=\"%d\" "
		   "viewBox=\"0 0 %.0f %d\" font-family=\"monospace\" font-size=\"12\">\n"
		   "<rect x=\"0\" y=\"0\" width=\"%.0f\" height=\"%d\" fill=\"rgb(250,250,238)\"/>\n"
		   "<text x=\"%.0f\" y=\"24\" text-anchor=\"middle\" font-size=\"16\">",
		   SVG_WIDTH, height, SVG_WIDTH, height, SVG_WIDTH, height, SVG_WIDTH / 2);
	put_xml_text(o, title);
	out_str(o, "</text>\n");
	put_controls(o, height);
	put_frames(fl, o, 0, root, fl->g.a[0].ticks, freq, height);
	out_str(o, "<script type=\"text/ecmascript\"><![CDATA[\n");
	out_str(o, flame_ui_js);
	out_str(o, "]]></script>\n</svg>\n");
}

/* What write_flame hands to the walk (deep_stack_run). */
struct flame_job {
	struct flame *fl;
	struct out_buffer *o;
	const struct fdr_trace *t;
	const struct call_forest *f;
	const struct filter_opts *v;
	const char *title;
	uint8_t **shown;
};

static int flame_forest(void *ctx)
{
	struct flame_job *j = ctx;
	int r = -1;

	if (view_filter_marks(j->v, j->t, j->f, j->fl->syms, j->shown) == 0 &&
	    call_agg_init(&j->fl->g, j->f, *j->shown) == 0)
		r = call_agg_add_all(&j->fl->g);
	if (r == 0)
		put_svg(j->fl, j->o, fdr_log_get_header(j->t->log)->cycle_frequency, j->title);
	return r;
}

int write_flame(struct out_buffer *o, const struct fdr_trace *t, const struct symbols *syms,
		const struct filter_opts *v, const char *title)
{
	struct call_forest f;
	struct flame fl = { .syms = syms };
	uint8_t *shown = NULL;
	struct flame_job job = { &fl, o, t, &f, v, title, &shown };
	int r;

	if (call_forest_build(&f, t))
		return -1;
	r = deep_stack_run(f.max_depth, flame_forest, &job);
	call_agg_free(&fl.g);
	free(shown);
	call_forest_free(&f);
	return r;
}
