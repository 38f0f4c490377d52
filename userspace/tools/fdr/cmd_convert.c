// SPDX-License-Identifier: MIT
/*
 * cmd_convert.c - `fdr convert --format chrome|perfetto|yaml [-o OUT] [FILTER]... [DIR|LOG]`:
 * fdrlog's convert (linked in, not exec'ed) with the names of the
 * recorded program, so no --instr-map/--sym-map is needed.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "commands.h"
#include "filter_opts.h"
#include "data_source.h"
#include "fdr_commands.h"

static const char help[] =
	"usage: fdr convert --format chrome|perfetto|yaml [-o OUT] [--no-sort | FILTER...] [DIR|LOG]\n"
	"Convert the log `fdr record` left in DIR (default ./fdr.data), with\n"
	"function names:\n"
	"  chrome  Chrome trace-event JSON (ui.perfetto.dev, chrome://tracing); with\n"
	"          LOG.sched also a \"TID state\" track per thread and wakeup arrows\n"
	"  perfetto  Perfetto's protobuf trace (smaller; LOG.sched as ftrace events,\n"
	"          so Perfetto draws thread states and wakeups itself)\n"
	"  yaml    the text of `llvm-xray convert -f yaml -y`\n"
	"  -o OUT  write to OUT, atomically (default: standard output)\n"
	FILTER_HELP
	"  (the records of the calls shown, as fdr replay shows them)\n"
	"This is `fdrlog convert` with the program's symbols; see fdrlog(1).\n";

struct convert_args {
	const char *format, *in;
	int nopts;		/* argv[1..nopts]: the options, handed on */
};

static int parse_one(int c, struct convert_args *a, struct filter_opts *f)
{
	int r;

	switch (c) {
	case 'h': fputs(help, stdout); return 0;
	case 'f': a->format = optarg; return -1;
	case 'o': case 'n': return -1;
	default:
		r = filter_opts_option(f, c, optarg, "fdr convert");
		if (r == 1)
			fputs(help, stderr);
		return r ? 2 : -1;
	}
}

/* Check the options (the filters with fdrlog's parser), so that a
 * mistake names this command. */
static int parse(int argc, char **argv, struct convert_args *a)
{
	static const struct option opts[] = {
		{ "help", no_argument, 0, 'h' }, { "format", required_argument, 0, 'f' },
		{ "output", required_argument, 0, 'o' }, { "no-sort", no_argument, 0, 'n' },
		FILTER_LONG_OPTIONS, { 0 }
	};
	struct filter_opts f = { 0 };
	int c, r = -1;

	optind = 0;
	while (r < 0 && (c = getopt_long(argc, argv, "hf:o:" FILTER_SHORTOPTS, opts, NULL)) != -1)
		r = parse_one(c, a, &f);
	if (r < 0 && (!a->format || (strcmp(a->format, "yaml") && strcmp(a->format, "chrome") &&
						 strcmp(a->format, "perfetto")))) {
		fprintf(stderr, "fdr convert: --format %s: expected chrome, perfetto or yaml\n",
			a->format ? a->format : "missing");
		r = 2;
	}
	if (r < 0 && optind < argc - 1) {
		fprintf(stderr, "fdr convert: expected at most one DIR or LOG\n%s", help);
		r = 2;
	}
	if (r < 0 && filter_opts_finish(&f, "fdr convert"))
		r = 2;
	filter_opts_free(&f);
	a->in = optind < argc ? argv[optind] : NULL;
	a->nopts = argc - 1 - (a->in ? 1 : 0);
	return r;
}

/* fdrlog convert's argument vector: the options as given, the names,
 * the log. */
static char **fdrlog_args(const struct convert_args *a, char **argv,
			  const struct data_source *ds, int *argc)
{
	char **v = calloc((size_t)a->nopts + 4 + 2 * ds->nsym_maps, sizeof(char *));
	int n = 0;

	if (!v)
		return NULL;
	v[n++] = "convert";
	for (int i = 1; i <= a->nopts; i++)
		v[n++] = argv[i];
	fdr__data_symbol_args(ds, v, &n);
	v[n++] = (char *)ds->log;
	*argc = n;
	return v;
}

int fdr__cmd_convert(int argc, char **argv)
{
	struct convert_args a = { 0 };
	struct data_source ds;
	char **v;
	int n, r = parse(argc, argv, &a);

	if (r >= 0)
		return r;
	if (fdr__data_open("convert", a.in, &ds))
		return 1;
	v = fdrlog_args(&a, argv, &ds, &n);
	if (!v) {
		fprintf(stderr, "fdr convert: out of memory\n");
		r = 1;
	} else {
		optind = 0;	/* cmd_convert parses its own vector afresh */
		r = cmd_convert(n, v);
	}
	free(v);
	fdr__data_close(&ds);
	return r;
}
