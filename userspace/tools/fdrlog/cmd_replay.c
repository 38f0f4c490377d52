// SPDX-License-Identifier: MIT
/* cmd_replay.c - `fdr replay [FILTER]... [DIR|LOG]`. */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "commands.h"
#include "convert.h"
#include "sched_time.h"
#include "view_filter.h"
#include "view_inputs.h"

static const char help[] =
	"usage: fdr replay [FILTER]... [--instr-map BINARY | --sym-map FILE]\n"
	"                  [--threads FILE | --no-threads] [--sched FILE | --no-sched] [DIR|LOG]\n"
	"Print each thread's call tree with durations, call arguments and custom\n"
	"events, as `uftrace replay` does, of the log `fdr record` left in DIR\n"
	"(default ./fdr.data), names resolved and demangled. Calls whose entry the ring overwrote\n"
	"say \"entry lost\" (their duration is a lower bound), calls still running\n"
	"at the end \"still open at the end\".\n"
	"--attached     the log starts at an attach (fdr record -p) and no buffer\n"
	"               was recycled: a missing entry says \"entered before the attach\"\n"
	"               (DIR's info file says so by itself)\n"
	FILTER_HELP
	"--instr-map, --sym-map, --threads, --no-threads: as for convert\n"
	"--sched FILE   fdrd's scheduling file (default: FILE.sched when it exists):\n"
	"               a line \"-- off CPU 2.001 ms (sleeping, woken by tid 102)\" where\n"
	"               the thread left its CPU; without it a first line says so\n"
	"--no-sched     ignore it\n";

static const struct option long_options[] = {
	{ "help", no_argument, 0, 'h' }, { "sched", required_argument, 0, OPT_SCHED },
	{ "no-sched", no_argument, 0, OPT_NO_SCHED }, VIEW_LONG_OPTIONS,
	{ "attached", no_argument, 0, OPT_ATTACHED }, { 0 }
};

/* -1: go on; else the exit status (help, usage error). */
static int parse(int argc, char **argv, struct view_opts *v, struct sched_source *sched,
		 bool *attached)
{
	int c, r;

	while ((c = getopt_long(argc, argv, "h" FILTER_SHORTOPTS, long_options, NULL)) != -1) {
		if (c == 'h') {
			fputs(help, stdout);
			return 0;
		}
		if (c == OPT_SCHED || c == OPT_NO_SCHED) {
			if (c == OPT_SCHED)
				sched->path = optarg;
			sched->disabled = c == OPT_NO_SCHED;
			continue;
		}
		if (c == OPT_ATTACHED) {
			*attached = true;
			continue;
		}
		r = cmd_view_option(c, optarg, "replay", v);
		if (r) {
			if (r == 1)
				fputs(help, stderr);
			return 2;
		}
	}
	if (optind < argc - 1) {
		fprintf(stderr, "fdr replay: expected at most one DIR or LOG\n%s", help);
		return 2;
	}
	return filter_opts_finish(&v->filter, "fdr replay") ? 2 : -1;
}

int cmd_replay(int argc, char **argv)
{
	struct view_opts v = { 0 };
	struct sched_source sched_src = { 0 };
	struct fdr_sched *sched = NULL;
	struct view_inputs in;
	struct out_buffer o;
	int r;

	bool attached = false;

	r = parse(argc, argv, &v, &sched_src, &attached);
	if (r < 0 && (r = view_inputs_load(&in, "replay", optind < argc ? argv[optind] : NULL,
					   &v)) == 0)
		r = -1;		/* loaded: go on */
	if (r >= 0) {
		filter_opts_free(&v.filter);
		return r;
	}
	if (sched_load("fdr replay", in.ds.log, &sched_src, &sched)) {
		view_inputs_free(&in);
		filter_opts_free(&v.filter);
		return 1;
	}
	r = out_init(&o, STDOUT_FILENO);
	if (r == 0) {
		/* the durations then hold time off CPU, and nothing marks it */
		if (!sched && !sched_src.disabled)
			out_printf(&o, "# %s: time off CPU is in the durations, unmarked\n",
				   sched_none_reason(&sched_src));
		/* no ring wrap after fdr record -p: a missing entry was before the attach */
		attached = attached || in.ds.attached == 1;
		r = write_replay(&o, &in.trace, in.syms, &in.ds.args, in.threads, sched, &v.filter, attached);
		out_flush(&o);
		if (r)
			fprintf(stderr, "fdr replay: out of memory\n");
		else if (o.error)
			fprintf(stderr, "fdr replay: writing standard output: %s\n", strerror(o.error));
		r = r || o.error;
		out_release(&o);
	}
	fdr_sched_close(sched);
	view_inputs_free(&in);
	filter_opts_free(&v.filter);
	return r ? 1 : 0;
}
