// SPDX-License-Identifier: MIT
/* cmd_flame.c - `fdr flame [FILTER]... [-o OUT.svg] [DIR|LOG]`. */
#include <getopt.h>
#include <stdio.h>
#include <string.h>
#include "commands.h"
#include "convert.h"
#include "out_file.h"
#include "view_filter.h"
#include "view_inputs.h"

static const char help[] =
	"usage: fdr flame [FILTER]... [-o OUT.svg]\n"
	"                 [--instr-map BINARY | --sym-map FILE] [--threads FILE | --no-threads] [DIR|LOG]\n"
	"Draw a flame graph of the log `fdr record` left in DIR (default ./fdr.data)\n"
	"as one self-contained SVG: every thread's calls merged\n"
	"by call path, each frame as wide as the time spent in it, callees on top\n"
	"of their callers.  In a browser: click a frame to zoom (Reset Zoom or\n"
	"Escape to go back), Search or Ctrl-F to highlight functions by regular\n"
	"expression; hover a frame for its name, time, calls and share.\n"
	FILTER_HELP
	"--instr-map, --sym-map, --threads, --no-threads: as for convert\n"
	"-o OUT.svg     write to OUT.svg (atomically: all or nothing), else stdout\n";

static const struct option long_options[] = {
	{ "help", no_argument, 0, 'h' }, { "output", required_argument, 0, 'o' },
	VIEW_LONG_OPTIONS, { 0 }
};

static int draw(const char *out, const struct view_inputs *in, const struct filter_opts *v,
		const char *title)
{
	struct out_buffer o;
	char tmp[4096];
	int fd = out_file_open("flame", out, tmp, sizeof(tmp)), r;

	if (fd < 0)
		return 1;
	r = out_init(&o, fd);
	if (r == 0) {
		r = write_flame(&o, &in->trace, in->syms, v, title);
		out_flush(&o);
		if (r)
			fprintf(stderr, "fdr flame: out of memory\n");
		else if (o.error)
			fprintf(stderr, "fdr flame: writing %s: %s\n", out ? out : "standard output",
				strerror(o.error));
		r = r || o.error;
		out_release(&o);
	}
	return out_file_finish("flame", out, tmp, fd, r ? 1 : 0);
}

/* -1: go on; else the exit status (help, usage error). */
static int parse(int argc, char **argv, struct view_opts *v, const char **out)
{
	int c, r;

	while ((c = getopt_long(argc, argv, "ho:" FILTER_SHORTOPTS, long_options, NULL)) != -1) {
		if (c == 'h') {
			fputs(help, stdout);
			return 0;
		}
		if (c == 'o') {
			*out = optarg;
			continue;
		}
		r = cmd_view_option(c, optarg, "flame", v);
		if (r) {
			if (r == 1)
				fputs(help, stderr);
			return 2;
		}
	}
	if (optind < argc - 1) {
		fprintf(stderr, "fdr flame: expected at most one DIR or LOG\n%s", help);
		return 2;
	}
	return filter_opts_finish(&v->filter, "fdr flame") ? 2 : -1;
}

int cmd_flame(int argc, char **argv)
{
	struct view_opts v = { 0 };
	struct view_inputs in;
	const char *out = NULL;
	int r = parse(argc, argv, &v, &out);

	if (r < 0 && (r = view_inputs_load(&in, "flame", optind < argc ? argv[optind] : NULL,
					   &v)) == 0) {
		r = draw(out, &in, &v.filter, in.ds.log);
		view_inputs_free(&in);
	}
	filter_opts_free(&v.filter);
	return r < 0 ? 1 : r;
}
