// SPDX-License-Identifier: MIT
/*
 * cmd_view.c - `fdr replay` and `fdr flame`: fdrlog's replay and flame
 * (linked in, not exec'ed) on the log `fdr record` left, with the recorded
 * program's names, so no --instr-map/--sym-map is needed.  The options
 * are fdrlog's (-F, -N, --depth; -o for flame), handed on as given.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "commands.h"
#include "data_source.h"
#include "fdr_commands.h"

struct view_cmd {
	const char *name;		/* replay, flame */
	const char *help;
	const char *shortopts;		/* fdrlog's, less h */
	int (*run)(int argc, char **argv);
};

static const char replay_help[] =
	"usage: fdr replay [-F FUNC]... [-N FUNC]... [--depth N] [DIR|LOG]\n"
	"The call tree of every thread of the log `fdr record` left in DIR\n"
	"(default ./fdr.data), with durations, call arguments and custom events,\n"
	"names resolved and demangled:\n"
	"  -F FUNC    only calls of FUNC and what they call\n"
	"  -N FUNC    leave out FUNC and what it calls\n"
	"  --depth N  at most N levels\n"
	"With the kernel's scheduling data (LOG.sched), a line \"-- off CPU 2.001 ms\n"
	"(sleeping, woken by tid 1234)\" where a thread left its CPU.\n"
	"This is `fdrlog replay` with the program's symbols; see fdrlog(1).\n";

static const char flame_help[] =
	"usage: fdr flame [-F FUNC]... [-N FUNC]... [--depth N] [-o OUT.svg] [DIR|LOG]\n"
	"A flame graph of the log `fdr record` left in DIR (default ./fdr.data),\n"
	"as one self-contained SVG (-o OUT.svg, written atomically; else stdout).\n"
	"-F, -N, --depth: as for fdr replay.  This is `fdrlog flame` with the\n"
	"program's symbols; see fdrlog(1).\n";

static const struct option opts[] = {
	{ "help", no_argument, 0, 'h' }, { "depth", required_argument, 0, 'D' },
	{ "output", required_argument, 0, 'o' }, { 0 }
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
	char shortopts[16];
	int c;

	snprintf(shortopts, sizeof(shortopts), "h%s", cmd->shortopts);
	optind = 0;
	while ((c = getopt_long(argc, argv, shortopts, opts, NULL)) != -1) {
		if (c == 'h') {
			fputs(cmd->help, stdout);
			return 0;
		}
		if (c == '?' || (c == 'o' && strcmp(cmd->name, "flame"))) {
			fputs(cmd->help, stderr);
			return 2;
		}
	}
	if (optind < argc - 1) {
		fprintf(stderr, "fdr %s: expected at most one DIR or LOG\n%s", cmd->name, cmd->help);
		return 2;
	}
	*in = optind < argc ? argv[optind] : NULL;
	return -1;
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
	static const struct view_cmd cmd = { "replay", replay_help, "F:N:", cmd_replay };

	return run_view(&cmd, argc, argv);
}

int fdr__cmd_flame(int argc, char **argv)
{
	static const struct view_cmd cmd = { "flame", flame_help, "F:N:o:", cmd_flame };

	return run_view(&cmd, argc, argv);
}
