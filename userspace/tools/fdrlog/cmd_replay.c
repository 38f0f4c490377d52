// SPDX-License-Identifier: MIT
/* cmd_replay.c - `fdrlog replay [-F FUNC] [-N FUNC] [--depth N] FILE`. */
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
	"usage: fdrlog replay [-F FUNC]... [-N FUNC]... [--depth N]\n"
	"                     [--instr-map BINARY | --sym-map FILE] [--threads FILE | --no-threads]\n"
	"                     [--sched FILE | --no-sched] FILE\n"
	"Print each thread's call tree with durations, call arguments and custom\n"
	"events, as `uftrace replay` does. Calls whose entry the ring overwrote\n"
	"say \"entry lost\" (their duration is a lower bound), calls still running\n"
	"at the end \"still open at the end\".\n"
	"--attached     the log starts at an attach (fdr record -p) and no buffer\n"
	"               was recycled: a missing entry says \"entered before the attach\"\n"
	"-F FUNC        only the calls of FUNC and what they call (repeatable)\n"
	"-N FUNC        not FUNC, nor what it calls (repeatable)\n"
	"--depth N      at most N levels (from FUNC with -F)\n"
	"FUNC is a name as printed (C++ names demangled, without parameters), the\n"
	"full symbol, or a function id (#id or id).\n"
	"--instr-map, --sym-map, --threads, --no-threads: as for convert\n"
	"--sched FILE   fdrd's scheduling file (default: FILE.sched when it exists):\n"
	"               a line \"-- off CPU 2.001 ms (sleeping, woken by tid 102)\" where\n"
	"               the thread left its CPU; without it a first line says so\n"
	"--no-sched     ignore it\n";

int cmd_view_option(int c, const char *arg, const char *cmd, struct view_filter *v,
		    struct symbol_sources *syms, struct thread_source *threads)
{
	char *end;
	unsigned long n;

	switch (c) {
	case 'F':
	case 'N':
		if (view_filter_add(c == 'F' ? v->only : v->hide, c == 'F' ? &v->nonly : &v->nhide, arg)) {
			fprintf(stderr, "fdrlog %s: -%c %s: at most %d names\n", cmd, c, arg, VIEW_MAX_NAMES);
			return 2;
		}
		return 0;
	case 'D':
		n = strtoul(arg, &end, 10);
		if (*arg < '0' || *arg > '9' || *end || n == 0 || n > 100000) {
			fprintf(stderr, "fdrlog %s: --depth %s: expected a number from 1 to 100000\n", cmd, arg);
			return 2;
		}
		v->max_depth = (unsigned)n;
		return 0;
	case 'm': syms->instr_map = arg; return 0;
	case 's': return add_sym_map(cmd, syms, arg) ? 2 : 0;
	case 't': threads->path = arg; return 0;
	case 'T': threads->disabled = 1; return 0;
	case 'A': v->attached = true; return 0;
	default: return 2;
	}
}

static const struct option view_long_options[] = {
	{ "help", no_argument, 0, 'h' }, { "depth", required_argument, 0, 'D' },
	{ "instr-map", required_argument, 0, 'm' }, { "sym-map", required_argument, 0, 's' },
	{ "threads", required_argument, 0, 't' }, { "no-threads", no_argument, 0, 'T' },
	{ "output", required_argument, 0, 'o' },
	{ "sched", required_argument, 0, 'S' }, { "no-sched", no_argument, 0, 'n' },
	{ "attached", no_argument, 0, 'A' },
	{ 0 }
};
const struct option *const cmd_view_long_options = view_long_options;

int cmd_replay(int argc, char **argv)
{
	struct view_filter v = { 0 };
	struct symbol_sources syms = { 0 };
	struct thread_source threads = { 0 };
	struct sched_source sched_src = { 0 };
	struct fdr_sched *sched = NULL;
	struct view_inputs in;
	struct out_buffer o;
	int c, r;

	while ((c = getopt_long(argc, argv, "hF:N:", cmd_view_long_options, NULL)) != -1) {
		if (c == 'h') {
			fputs(help, stdout);
			return 0;
		}
		if (c == 'S' || c == 'n') {
			if (c == 'S')
				sched_src.path = optarg;
			sched_src.disabled = c == 'n';
			continue;
		}
		if (c == 'o' || cmd_view_option(c, optarg, "replay", &v, &syms, &threads)) {
			fputs(help, stderr);
			return 2;
		}
	}
	if (optind != argc - 1) {
		fprintf(stderr, "fdrlog replay: expected one FILE\n%s", help);
		return 2;
	}
	if (view_inputs_load(&in, "replay", argv[optind], &syms, &threads))
		return 1;
	if (sched_load("fdrlog replay", argv[optind], &sched_src, &sched)) {
		view_inputs_free(&in);
		return 1;
	}
	r = out_init(&o, STDOUT_FILENO);
	if (r == 0) {
		/* the durations then hold time off CPU, and nothing marks it */
		if (!sched && !sched_src.disabled)
			out_printf(&o, "# %s: time off CPU is in the durations, unmarked\n",
				   sched_none_reason(&sched_src));
		r = write_replay(&o, &in.trace, in.syms, in.threads, sched, &v);
		out_flush(&o);
		if (r)
			fprintf(stderr, "fdrlog replay: out of memory\n");
		else if (o.error)
			fprintf(stderr, "fdrlog replay: writing standard output: %s\n", strerror(o.error));
		r = r || o.error;
		out_release(&o);
	}
	fdr_sched_close(sched);
	view_inputs_free(&in);
	return r ? 1 : 0;
}
