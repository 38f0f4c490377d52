// SPDX-License-Identifier: MIT
/* cmd_flame.c - `fdrlog flame [-F FUNC] [-N FUNC] [--depth N] [-o OUT.svg] FILE`. */
#include <getopt.h>
#include <stdio.h>
#include <string.h>
#include "commands.h"
#include "convert.h"
#include "out_file.h"
#include "view_filter.h"
#include "view_inputs.h"

static const char help[] =
	"usage: fdrlog flame [-F FUNC]... [-N FUNC]... [--depth N] [-o OUT.svg]\n"
	"                    [--instr-map BINARY | --sym-map FILE] [--threads FILE | --no-threads] FILE\n"
	"Draw a flame graph as one self-contained SVG: every thread's calls merged\n"
	"by call path, each frame as wide as the time spent in it, callees on top\n"
	"of their callers.  In a browser: click a frame to zoom (Reset Zoom or\n"
	"Escape to go back), Search or Ctrl-F to highlight functions by regular\n"
	"expression; hover a frame for its name, time, calls and share.\n"
	"-F, -N, --depth, --instr-map, --sym-map: as for replay\n"
	"-o OUT.svg     write to OUT.svg (atomically: all or nothing), else stdout\n";

static int draw(const char *out, const struct view_inputs *in, const struct view_filter *v,
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
			fprintf(stderr, "fdrlog flame: out of memory\n");
		else if (o.error)
			fprintf(stderr, "fdrlog flame: writing %s: %s\n", out ? out : "standard output",
				strerror(o.error));
		r = r || o.error;
		out_release(&o);
	}
	return out_file_finish("flame", out, tmp, fd, r ? 1 : 0);
}

int cmd_flame(int argc, char **argv)
{
	struct view_filter v = { 0 };
	struct symbol_sources syms = { 0 };
	struct thread_source threads = { 0 };
	struct view_inputs in;
	const char *out = NULL;
	int c, r;

	while ((c = getopt_long(argc, argv, "hF:N:o:", cmd_view_long_options, NULL)) != -1) {
		if (c == 'h') {
			fputs(help, stdout);
			return 0;
		}
		if (c == 'o')
			out = optarg;
		else if (cmd_view_option(c, optarg, "flame", &v, &syms, &threads)) {
			fputs(help, stderr);
			return 2;
		}
	}
	if (optind != argc - 1) {
		fprintf(stderr, "fdrlog flame: expected one FILE\n%s", help);
		return 2;
	}
	if (view_inputs_load(&in, "flame", argv[optind], &syms, &threads))
		return 1;
	r = draw(out, &in, &v, argv[optind]);
	view_inputs_free(&in);
	return r;
}
