// SPDX-License-Identifier: MIT
/* cmd_account.c - `fdr account [DIR|LOG]`: llvm-xray account's latency table. */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "commands.h"
#include "data_source.h"
#include "convert.h"
#include "sched_time.h"

static const char help[] =
	"usage: fdr account [--sort KEY] [--desc] [--top N]\n"
	"                   [--instr-map BINARY | --sym-map FILE]\n"
	"                   [--sched FILE | --no-sched] [DIR|LOG]\n"
	"As `llvm-xray account`, of the log `fdr record` left in DIR (default\n"
	"./fdr.data), names resolved.\n"
	"Per function: call count and min, median, 90th and 99th percentile, max\n"
	"and total latency in seconds (TSC ticks / CycleFrequency; ticks if the\n"
	"frequency is 0); the total adds a recursive function's outermost calls\n"
	"only.  Exits whose entry is not in the log and calls still\n"
	"open at the end are counted and listed, not fatal.  Records the writers\n"
	"dropped (streaming mode's drop markers) are summed on a last line.\n"
	"--sort KEY   func (default), count, min, med, 90p, 99p, max, sum\n"
	"--desc       descending order\n"
	"--top N      only the first N functions\n"
	"--instr-map BINARY, --sym-map FILE (repeatable): name the functions,\n"
	"             as for `fdr convert`\n"
	"--sched FILE fdrd's scheduling file (default: FILE.sched when it exists):\n"
	"             adds each function's on-CPU, runnable and blocked seconds,\n"
	"             summed over its outermost calls like sum; without it the\n"
	"             table has no such columns\n"
	"--no-sched   ignore it\n";

static int parse_sort(const char *s, enum account_sort *out)
{
	static const char *const names[] = { "func", "count", "min", "med", "90p",
					     "99p", "max", "sum" };

	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		if (!strcmp(s, names[i])) {
			*out = (enum account_sort)i;
			return 0;
		}
	}
	fprintf(stderr, "fdr account: --sort %s: expected func, count, min, med, "
		"90p, 99p, max or sum\n", s);
	return -1;
}

/* Parse the command line; -1 to go on, else the exit status. */
static int parse_args(int argc, char **argv, struct account_options *ao,
		      struct symbol_sources *src, struct sched_source *sched)
{
	static const struct option opts[] = {
		{ "help", no_argument, 0, 'h' }, { "sort", required_argument, 0, 's' },
		{ "desc", no_argument, 0, 'd' }, { "top", required_argument, 0, 't' },
		{ "instr-map", required_argument, 0, 'm' }, { "sym-map", required_argument, 0, 'y' },
		{ "sched", required_argument, 0, 'S' }, { "no-sched", no_argument, 0, 'n' },
		{ 0 }
	};
	char *end;
	int c;

	while ((c = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
		switch (c) {
		case 'h': fputs(help, stdout); return 0;
		case 's': if (parse_sort(optarg, &ao->sort)) return 2; break;
		case 'd': ao->descending = 1; break;
		case 't':
			ao->top = strtoul(optarg, &end, 10);
			if (*end || *optarg < '0' || *optarg > '9') {
				fprintf(stderr, "fdr account: --top %s: expected a number\n", optarg);
				return 2;
			}
			break;
		case 'm': src->instr_map = optarg; break;
		case 'y': if (add_sym_map("account", src, optarg)) return 2; break;
		case 'S': sched->path = optarg; break;
		case 'n': sched->disabled = 1; break;
		default: fputs(help, stderr); return 2;
		}
	}
	if (optind < argc - 1) {
		fprintf(stderr, "fdr account: expected at most one DIR or LOG\n%s", help);
		return 2;
	}
	return -1;
}

/* Expand the log and print its table; 0 or 1. */
static int account_log(const char *path, const struct fdr_log *log,
		       const struct symbols *syms, const struct account_options *ao)
{
	struct fdr_reader_error err;
	struct fdr_trace trace;
	struct out_buffer o;
	int r;

	if (fdr_trace_build(&trace, log, FDR_TRACE_SORT_BY_TSC, &err)) {
		report_log_error("account", path, &err);
		return 1;
	}
	r = out_init(&o, STDOUT_FILENO) ? -1 : write_account(&o, &trace, syms, ao);
	out_flush(&o);
	if (r || o.error)
		fprintf(stderr, "fdr account: %s: %s\n", path,
			r ? "out of memory" : strerror(o.error));
	r = r || o.error;
	out_release(&o);
	fdr_trace_free(&trace);
	return r;
}

int cmd_account(int argc, char **argv)
{
	struct account_options ao = { SORT_FUNC, 0, 0, NULL };
	struct symbol_sources src = { 0 };
	struct sched_source sched_src = { 0 };
	struct fdr_sched *sched = NULL;
	struct symbols *syms = NULL;
	struct data_source ds;
	struct fdr_log *log;
	int r = parse_args(argc, argv, &ao, &src, &sched_src);

	if (r >= 0)
		return r;
	if (fdr__data_open("account", optind < argc ? argv[optind] : NULL, &ds))
		return 1;
	log = open_log_or_report("account", ds.log);
	r = !log || load_symbols("account", &src, &ds, &syms) ||
	    sched_load("fdr account", ds.log, &sched_src, &sched);
	if (!r) {
		ao.sched = sched;
		r = account_log(ds.log, log, syms, &ao);
	}
	fdr_sched_close(sched);
	symbols_free(syms);
	if (log)
		fdr_log_close(log);
	fdr__data_close(&ds);
	return r;
}
