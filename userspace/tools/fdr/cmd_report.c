// SPDX-License-Identifier: MIT
/* cmd_report.c - `fdr report [FILTER]... [DIR|LOG]`. */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "data_source.h"
#include "fdr_commands.h"
#include "report.h"
#include "sched_time.h"
#include "symbols.h"
#include "view_filter.h"

static const char help[] =
	"usage: fdr report [--sort KEY] [--json] [FILTER]... [--sched FILE | --no-sched]\n"
	"                  [DIR|LOG]\n"
	"Per function: total time, self time (total minus completed callees) and\n"
	"calls, of the log `fdr record` left in DIR (default ./fdr.data), names\n"
	"resolved from the recorded program.  A recursive function's total runs\n"
	"from its outermost entry to that entry's exit.  Calls still open at the\n"
	"end (a crash) and exits whose entry the ring overwrote are counted apart;\n"
	"a first line says when fdr record's threshold kept no shorter call.\n"
	"  -s, --sort KEY   total (default), self, calls, name, id; with scheduling\n"
	"                   data also on-cpu, runnable, blocked\n"
	"      --json       one JSON object: {\"functions\": [{name, id, calls,\n"
	"                   total_ns, self_ns[, on_cpu_ns, runnable_ns, blocked_ns,\n"
	"                   unknown_ns]}...], ..., \"sched\": \"recorded\"|\"none\",\n"
	"                   \"dropped\": records the writers dropped (streaming mode's\n"
	"                   drop markers; 0 when none), missing from every count,\n"
	"                   \"threshold_us\": fdr record's (null: not known)}\n"
	"      --sched FILE the kernel's context switches (default: LOG.sched when it\n"
	"                   exists): adds On-CPU, Runnable and Blocked time per function,\n"
	"                   inclusive like Total; without it the table has no such\n"
	"                   columns and JSON says \"sched\": \"none\"\n"
	"      --no-sched   ignore it\n"
	FILTER_HELP
	"  (the calls replay would show with the same filters are the ones counted)\n";

static int parse_sort(const char *s, enum report_sort *out)
{
	static const char *const names[] = { "total", "self", "calls", "name", "id",
					     "on-cpu", "runnable", "blocked" };

	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (!strcmp(s, names[i])) {
			*out = (enum report_sort)i;
			return 0;
		}
	fprintf(stderr, "fdr report: --sort %s: expected total, self, calls, name, id, "
		"on-cpu, runnable or blocked\n", s);
	return -1;
}

static int parse_one(int c, struct report_opts *o)
{
	int r;

	switch (c) {
	case 'h': fputs(help, stdout); return 0;
	case 's': return parse_sort(optarg, &o->sort) ? 2 : -1;
	case 'j': o->json = true; return -1;
	case 'S': o->sched.path = optarg; return -1;
	case 'n': o->sched.disabled = 1; return -1;
	default:
		r = filter_opts_option(&o->filter, c, optarg, "fdr report");
		if (r == 1)
			fputs(help, stderr);
		return r ? 2 : -1;
	}
}

static int parse(int argc, char **argv, struct report_opts *o, const char **in)
{
	static const struct option opts[] = {
		{ "help", no_argument, 0, 'h' }, { "sort", required_argument, 0, 's' },
		{ "json", no_argument, 0, 'j' }, { "sched", required_argument, 0, 'S' },
		{ "no-sched", no_argument, 0, 'n' }, FILTER_LONG_OPTIONS, { 0 }
	};
	int c, r;

	optind = 0;
	while ((c = getopt_long(argc, argv, "hs:" FILTER_SHORTOPTS, opts, NULL)) != -1)
		if ((r = parse_one(c, o)) >= 0)
			return r;
	if (optind < argc - 1) {
		fprintf(stderr, "fdr report: expected at most one DIR or LOG\n%s", help);
		return 2;
	}
	*in = optind < argc ? argv[optind] : NULL;
	return filter_opts_finish(&o->filter, "fdr report") ? 2 : -1;
}

/* The call that fired the trigger, named as the table names functions. */
static void name_trigger(struct report *r, const struct data_trigger *trig,
			 const struct symbols *syms)
{
	char *name = fdr__report_name(syms, trig->fid);

	r->trigger = trig;
	if (name)
		snprintf(r->trigger_name, sizeof(r->trigger_name), "%s", name);
	else
		snprintf(r->trigger_name, sizeof(r->trigger_name), "#%d", trig->fid);
	free(name);
}

static int report_trace(const struct data_source *ds, const struct fdr_trace *t,
			const struct symbols *syms, const struct report_opts *o,
			const struct report *drops)
{
	struct fdr_sched *sched;
	struct report rep;

	if (sched_load("fdr report", ds->log, &o->sched, &sched))
		return 1;
	if (!sched && o->sort >= SORT_ON_CPU) {
		fprintf(stderr, "fdr report: --sort on-cpu, runnable and blocked need the "
			"kernel's scheduling data: %s%s\n", sched_none_reason(&o->sched),
			o->sched.disabled ? "" : "; fdr record through /dev/fdr (fdr.ko) writes it");
		return 1;
	}
	if (fdr__report_build(&rep, t, syms, o, sched)) {
		fprintf(stderr, "fdr report: out of memory\n");
		fdr_sched_close(sched);
		return 1;
	}
	rep.dropped = drops->dropped;
	rep.drop_places = drops->drop_places;
	rep.threshold_us = ds->threshold_us;
	rep.attached = ds->attached;
	if (ds->trigger.fired)
		name_trigger(&rep, &ds->trigger, syms);
	if (o->json)
		fdr__report_print_json(stdout, &rep, ds->log);
	else
		fdr__report_print_text(stdout, &rep);
	fdr__report_free(&rep);
	fdr_sched_close(sched);
	if (fflush(stdout) || ferror(stdout)) {
		perror("fdr report: standard output");
		return 1;
	}
	return 0;
}

static int report_log(const struct data_source *ds, const struct report_opts *o)
{
	struct fdr_reader_error err;
	struct symbols *syms = NULL;
	struct report drops = { 0 };
	struct fdr_trace t;
	struct fdr_log *log;
	int r = 1;

	if (fdr_log_open_file(&log, ds->log, &err)) {
		fprintf(stderr, "fdr report: %s: %s\n", ds->log, err.message);
		return 1;
	}
	if (fdr__data_symbols("report", ds, &syms))
		goto out;
	if (fdr_trace_build(&t, log, FDR_TRACE_SORT_BY_TSC, &err)) {
		fprintf(stderr, "fdr report: %s: %s\n", ds->log, err.message);
		goto out;
	}
	/* drop markers are no call: counted before the filters */
	if (fdr__report_count_drops(&drops, &t, &o->filter)) {
		fprintf(stderr, "fdr report: out of memory\n");
		r = 1;
	} else {
		r = view_filter_apply(&o->filter, &t, syms, "fdr report");
	}
	if (r == 0)
		r = report_trace(ds, &t, syms, o, &drops);
	fdr_trace_free(&t);
out:
	symbols_free(syms);
	fdr_log_close(log);
	return r;
}

int fdr__cmd_report(int argc, char **argv)
{
	struct report_opts o = { .sort = SORT_TOTAL };
	struct data_source ds;
	const char *in;
	int r = parse(argc, argv, &o, &in);

	if (r < 0) {
		r = 1;
		if (fdr__data_open("report", in, &ds) == 0) {
			r = report_log(&ds, &o);
			fdr__data_close(&ds);
		}
	}
	filter_opts_free(&o.filter);
	return r;
}
