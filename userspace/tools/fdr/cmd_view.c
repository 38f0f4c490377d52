// SPDX-License-Identifier: MIT
/*
 * cmd_view.c - `fdr replay` and `fdr flame`: fdrlog's replay and flame
 * (linked in, not exec'ed) on the log `fdr record` left, with the recorded
 * program's names, so no --instr-map/--sym-map is needed.  The options
 * are fdrlog's (the filters of filter_opts.h; -o for flame), checked here
 * by the same parser so that a mistake names this command, then handed
 * on as given.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "commands.h"
#include "filter_opts.h"
#include "data_source.h"
#include "fdr_commands.h"

struct view_cmd {
	const char *name;		/* replay, flame */
	const char *help;
	const char *shortopts;		/* fdrlog's, less h and the filters */
	int (*run)(int argc, char **argv);
};

static const char replay_help[] =
	"usage: fdr replay [FILTER]... [DIR|LOG]\n"
	"The call tree of every thread of the log `fdr record` left in DIR\n"
	"(default ./fdr.data), with durations, call arguments and custom events,\n"
	"names resolved and demangled.\n"
	FILTER_HELP
	"With the kernel's scheduling data (LOG.sched), a line \"-- off CPU 2.001 ms\n"
	"(sleeping, woken by tid 1234)\" where a thread left its CPU.\n"
	"This is `fdrlog replay` with the program's symbols; see fdrlog(1).\n";

static const char flame_help[] =
	"usage: fdr flame [FILTER]... [-o OUT.svg] [DIR|LOG]\n"
	"A flame graph of the log `fdr record` left in DIR (default ./fdr.data),\n"
	"as one self-contained SVG (-o OUT.svg, written atomically; else stdout).\n"
	"FILTER: as for fdr replay (fdr(1) FILTERS).  This is `fdrlog flame`\n"
	"with the program's symbols; see fdrlog(1).\n";

static const struct option opts[] = {
	{ "help", no_argument, 0, 'h' }, { "output", required_argument, 0, 'o' },
	FILTER_LONG_OPTIONS, { 0 }
};

/* argv for fdrlog: the user's options, then the names, then the log. */
static char **fdrlog_args(const struct view_cmd *cmd, char **given, int ngiven,
			  const struct data_source *ds, int *argc)
{
	char **v = calloc((size_t)ngiven + 6 + 2 * ds->nsym_maps, sizeof(char *));
	int n = 0;

	if (!v)
		return NULL;
	v[n++] = (char *)cmd->name;
	for (int i = 0; i < ngiven; i++)
		v[n++] = given[i];
	if (ds->attached == 1)	/* no ring wrap: a missing entry was before the attach */
		v[n++] = "--attached";
	fdr__data_symbol_args(ds, v, &n);
	v[n++] = (char *)ds->log;
	*argc = n;
	return v;
}

/* Check the options here, so that a mistake names this command. */
static int parse(const struct view_cmd *cmd, int argc, char **argv, const char **in)
{
	struct filter_opts f = { 0 };
	char shortopts[32], who[32];
	int c, r = -1;

	snprintf(shortopts, sizeof(shortopts), "h%s" FILTER_SHORTOPTS, cmd->shortopts);
	snprintf(who, sizeof(who), "fdr %s", cmd->name);
	optind = 0;
	while (r < 0 && (c = getopt_long(argc, argv, shortopts, opts, NULL)) != -1) {
		if (c == 'h') {
			fputs(cmd->help, stdout);
			r = 0;
		} else if (c == 'o' && !strcmp(cmd->name, "flame")) {
			continue;
		} else if ((r = filter_opts_option(&f, c, optarg, who)) == 0) {
			r = -1;
		} else {
			if (r == 1)
				fputs(cmd->help, stderr);
			r = 2;
		}
	}
	if (r < 0 && optind < argc - 1) {
		fprintf(stderr, "%s: expected at most one DIR or LOG\n%s", who, cmd->help);
		r = 2;
	}
	if (r < 0 && filter_opts_finish(&f, who))
		r = 2;
	filter_opts_free(&f);
	*in = optind < argc ? argv[optind] : NULL;
	return r;
}

static int run_view(const struct view_cmd *cmd, int argc, char **argv)
{
	const char *in = NULL;
	struct data_source ds;
	char **v;
	int n, r = parse(cmd, argc, argv, &in);

	if (r >= 0)
		return r;
	if (fdr__data_open(cmd->name, in, &ds))
		return 1;
	/* the options as given, without the DIR|LOG operand (last, if any) */
	v = fdrlog_args(cmd, argv + 1, argc - 1 - (in ? 1 : 0), &ds, &n);
	if (!v) {
		fprintf(stderr, "fdr %s: out of memory\n", cmd->name);
		r = 1;
	} else {
		optind = 0;	/* fdrlog's command parses its own vector afresh */
		r = cmd->run(n, v);
	}
	free(v);
	fdr__data_close(&ds);
	return r;
}

int fdr__cmd_replay(int argc, char **argv)
{
	static const struct view_cmd cmd = { "replay", replay_help, "", cmd_replay };

	return run_view(&cmd, argc, argv);
}

int fdr__cmd_flame(int argc, char **argv)
{
	static const struct view_cmd cmd = { "flame", flame_help, "o:", cmd_flame };

	return run_view(&cmd, argc, argv);
}
