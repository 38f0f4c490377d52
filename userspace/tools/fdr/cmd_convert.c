// SPDX-License-Identifier: MIT
/*
 * cmd_convert.c - `fdr convert --format chrome|perfetto|yaml [-o OUT] [DIR|LOG]`:
 * fdrlog's convert (linked in, not exec'ed) with the names of the
 * recorded program, so no --instr-map/--sym-map is needed.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "commands.h"
#include "data_source.h"
#include "fdr_commands.h"

static const char help[] =
	"usage: fdr convert --format chrome|perfetto|yaml [-o OUT] [--no-sort] [DIR|LOG]\n"
	"Convert the log `fdr record` left in DIR (default ./fdr.data), with\n"
	"function names:\n"
	"  chrome  Chrome trace-event JSON (ui.perfetto.dev, chrome://tracing); with\n"
	"          LOG.sched also a \"TID state\" track per thread and wakeup arrows\n"
	"  perfetto  Perfetto's protobuf trace (smaller; LOG.sched as ftrace events,\n"
	"          so Perfetto draws thread states and wakeups itself)\n"
	"  yaml    the text of `llvm-xray convert -f yaml -y`\n"
	"  -o OUT  write to OUT, atomically (default: standard output)\n"
	"This is `fdrlog convert` with the program's symbols; see fdrlog(1).\n";

struct convert_args {
	const char *format, *out, *in;
	bool no_sort;
};

static int parse(int argc, char **argv, struct convert_args *a)
{
	static const struct option opts[] = {
		{ "help", no_argument, 0, 'h' }, { "format", required_argument, 0, 'f' },
		{ "output", required_argument, 0, 'o' }, { "no-sort", no_argument, 0, 'n' },
		{ 0 }
	};
	int c;

	optind = 0;
	while ((c = getopt_long(argc, argv, "hf:o:", opts, NULL)) != -1) {
		switch (c) {
		case 'h': fputs(help, stdout); return 0;
		case 'f': a->format = optarg; break;
		case 'o': a->out = optarg; break;
		case 'n': a->no_sort = true; break;
		default: fputs(help, stderr); return 2;
		}
	}
	if (!a->format || (strcmp(a->format, "yaml") && strcmp(a->format, "chrome") &&
			   strcmp(a->format, "perfetto"))) {
		fprintf(stderr, "fdr convert: --format %s: expected chrome, perfetto or yaml\n",
			a->format ? a->format : "missing");
		return 2;
	}
	if (optind < argc - 1) {
		fprintf(stderr, "fdr convert: expected at most one DIR or LOG\n%s", help);
		return 2;
	}
	a->in = optind < argc ? argv[optind] : NULL;
	return -1;
}

/* fdrlog convert's argument vector for this data source. */
static char **fdrlog_args(const struct convert_args *a, const struct data_source *ds,
			  int *argc)
{
	char **v = calloc(8 + 2 * ds->nsym_maps, sizeof(char *));
	int n = 0;

	if (!v)
		return NULL;
	v[n++] = "convert";
	v[n++] = "--format";
	v[n++] = (char *)a->format;
	if (a->out) {
		v[n++] = "-o";
		v[n++] = (char *)a->out;
	}
	if (a->no_sort)
		v[n++] = "--no-sort";
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
	v = fdrlog_args(&a, &ds, &n);
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
