// SPDX-License-Identifier: MIT
/* cmd_graph.c - `fdr graph [FILTER]... [FUNC] [DIR|LOG]`, as `uftrace graph`. */
#include <getopt.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "commands.h"
#include "filter_match.h"
#include "graph.h"
#include "view_filter.h"
#include "view_inputs.h"

static const char help[] =
	"usage: fdr graph [FILTER]... [--instr-map BINARY | --sym-map FILE]\n"
	"                 [--threads FILE | --no-threads] [FUNC] [DIR|LOG]\n"
	"The calls of the log `fdr record` left in DIR (default ./fdr.data)\n"
	"aggregated by call path, as `uftrace graph` prints them: per path the\n"
	"total time and the number of calls.  Without FUNC, the whole program's\n"
	"graph (every thread's calls under one node named after the program);\n"
	"with FUNC, its backtraces (each distinct chain of callers of its\n"
	"outermost calls, with hits and time), then the graph of what it called.\n"
	"FUNC is matched as -F matches it (a regex may name several functions:\n"
	"a graph for each).  A single operand is DIR|LOG when such a file or\n"
	"directory exists, else FUNC; give both to be sure (fdr graph FUNC DIR).\n"
	FILTER_HELP
	"--instr-map, --sym-map, --threads, --no-threads: as for fdr convert\n";

static const struct option long_options[] = {
	{ "help", no_argument, 0, 'h' }, VIEW_LONG_OPTIONS, { 0 }
};

/* -1: go on; else the exit status (help, usage error). */
static int parse(int argc, char **argv, struct view_opts *v, const char **func,
		 const char **in)
{
	struct stat st;
	int c, r;

	optind = 0;
	while ((c = getopt_long(argc, argv, "h" FILTER_SHORTOPTS, long_options, NULL)) != -1) {
		if (c == 'h') {
			fputs(help, stdout);
			return 0;
		}
		r = cmd_view_option(c, optarg, "graph", v);
		if (r) {
			if (r == 1)
				fputs(help, stderr);
			return 2;
		}
	}
	if (argc - optind > 2) {
		fprintf(stderr, "fdr graph: expected at most FUNC and one DIR or LOG\n%s", help);
		return 2;
	}
	if (argc - optind == 2) {
		*func = argv[optind];
		*in = argv[optind + 1];
	} else if (argc - optind == 1) {
		/* uftrace's `graph FUNC`, or the input as every reading command takes it */
		if (stat(argv[optind], &st) == 0)
			*in = argv[optind];
		else
			*func = argv[optind];
	}
	return filter_opts_finish(&v->filter, "fdr graph") ? 2 : -1;
}

/* The functions func names, matched as -F FUNC is (filter_match.h);
 * 0, or after a message 1 (out of memory) or 2 (no function). */
static int match_func(const char *func, const struct view_opts *v, const struct view_inputs *in,
		      int32_t **fids, size_t *nfids)
{
	struct filter_opts fo = { .glob = v->filter.glob };
	struct filter_match m = { 0 };
	int r = filter_opts_option(&fo, 'F', func, "fdr graph");

	if (r == 0)
		r = filter_opts_finish(&fo, "fdr graph");
	if (r == 0)
		r = filter_match_build(&m, &fo, &in->trace, in->syms, "fdr graph");
	*fids = r == 0 ? calloc(m.n ? m.n : 1, sizeof(**fids)) : NULL;
	if (r == 0 && !*fids) {
		fprintf(stderr, "fdr graph: out of memory\n");
		r = 1;
	}
	for (size_t i = 0; r == 0 && i < m.n; i++)
		if (m.v[i].fn == 'F')
			(*fids)[(*nfids)++] = m.v[i].fid;
	filter_match_free(&m);
	filter_opts_free(&fo);
	return r;
}

/* The whole graph's top node: the recorded program, else the log. */
static const char *prog_name(const struct view_inputs *in, char *tmp, size_t len)
{
	snprintf(tmp, len, "%s", in->ds.exe[0] ? in->ds.exe : in->ds.log);
	return basename(tmp);
}

static int run(const char *func, const struct view_opts *v, const struct view_inputs *in)
{
	struct graph_request req = { .log = in->ds.log };
	struct out_buffer o;
	int32_t *fids = NULL;
	size_t nfids = 0;
	char tmp[sizeof(in->ds.log)];
	int r = func ? match_func(func, v, in, &fids, &nfids) : 0;

	if (r)
		return r;
	req.fids = fids;
	req.nfids = nfids;
	req.prog = prog_name(in, tmp, sizeof(tmp));
	r = out_init(&o, STDOUT_FILENO);
	if (r == 0) {
		r = write_graph(&o, &in->trace, in->syms, &v->filter, &req);
		out_flush(&o);
		if (r)
			fprintf(stderr, "fdr graph: out of memory\n");
		else if (o.error)
			fprintf(stderr, "fdr graph: writing standard output: %s\n", strerror(o.error));
		r = r || o.error;
		out_release(&o);
	}
	free(fids);
	return r ? 1 : 0;
}

int cmd_graph(int argc, char **argv)
{
	struct view_opts v = { 0 };
	struct view_inputs in;
	const char *func = NULL, *operand = NULL;
	int r = parse(argc, argv, &v, &func, &operand);

	if (r < 0 && (r = view_inputs_load(&in, "graph", operand, &v)) == 0) {
		r = run(func, &v, &in);
		view_inputs_free(&in);
	}
	filter_opts_free(&v.filter);
	return r < 0 ? 1 : r;
}
