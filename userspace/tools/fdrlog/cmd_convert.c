// SPDX-License-Identifier: MIT
/* cmd_convert.c - `fdr convert --format yaml|chrome|perfetto [DIR|LOG]`. */
#include <errno.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <getopt.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "commands.h"
#include "data_source.h"
#include "convert.h"
#include "out_file.h"
#include "sched_time.h"
#include "view_filter.h"

static const char help[] =
	"usage: fdr convert --format yaml|chrome|perfetto\n"
	"                   [--instr-map BINARY | --sym-map FILE]\n"
	"                   [--no-sort | FILTER...] [--threads FILE | --no-threads]\n"
	"                   [--sched FILE | --no-sched] [-o OUT] [DIR|LOG]\n"
	"       fdr convert --for-llvm-xray [--instr-map BINARY | --sym-map FILE]\n"
	"                   [FILTER]... [-o OUT] [DIR|LOG]\n"
	"Expand the log `fdr record` left in DIR (default ./fdr.data), names\n"
	"resolved, as llvm-xray 19 does (per-thread block order, absolute TSCs)\n"
	"and print it:\n"
	"  yaml    the text of `llvm-xray convert -f yaml`, records stable-sorted\n"
	"          by TSC (--no-sort: expansion order, like --sort=false)\n"
	"  chrome  Chrome trace-event JSON (Perfetto, chrome://tracing): B/E events\n"
	"          per thread, timestamps in microseconds from CycleFrequency\n"
	"  perfetto  Perfetto's protobuf trace (ui.perfetto.dev): slices per thread,\n"
	"          interned names, LOG.sched as ftrace sched_switch/sched_waking;\n"
	"          streamed (memory does not grow with the log) unless filtered\n"
	"--instr-map BINARY  (instead of DIR's names) name functions from the xray_instr_map of an\n"
	"                    -fxray-instrument binary (like llvm-xray -m BINARY -y)\n"
	"--sym-map FILE      name functions from the -finstrument-functions\n"
	"                    adapter's id table (fid<TAB>symbol<TAB>module<TAB>offset);\n"
	"                    repeat it to merge the maps of several processes\n"
	"--threads FILE      fdrd's side table (default: FILE.threads when it exists):\n"
	"                    chrome gets real pids and process/thread names\n"
	"--no-threads        ignore the side table (pid = tid, as llvm-xray)\n"
	"--sched FILE        fdrd's scheduling file (default: FILE.sched when it\n"
	"                    exists): chrome gets a \"TID state\" track per thread\n"
	"                    (Running, Runnable, Sleeping, D) and wakeup arrows\n"
	"--no-sched          ignore it\n"
	"--for-llvm-xray     YAML that llvm-xray-19 account/graph/stack read for any\n"
	"                    log: sorted by TSC; an Enter with data fdr-entry-lost for\n"
	"                    each Exit whose Enter the ring overwrote (at the thread's\n"
	"                    first record: a lower bound), an Exit with data\n"
	"                    fdr-exit-lost for each frame an exit further down closed\n"
	"-o OUT              write to OUT (atomically: all or nothing)\n"
	FILTER_HELP
	"  (the records of the calls shown: the log sorted by TSC, so not --no-sort)\n";

struct convert_opts {
	const char *format, *out, *in;	/* in: the operand, NULL if none */
	struct view_opts view;
	struct sched_source sched;
	int no_sort, for_llvm;
};

static int parse(int argc, char **argv, struct convert_opts *co)
{
	static const struct option opts[] = {
		{ "help", no_argument, 0, 'h' }, { "format", required_argument, 0, 'f' },
		{ "output", required_argument, 0, 'o' }, { "no-sort", no_argument, 0, OPT_NO_SORT },
		{ "for-llvm-xray", no_argument, 0, OPT_FOR_LLVM },
		{ "sched", required_argument, 0, OPT_SCHED },
		{ "no-sched", no_argument, 0, OPT_NO_SCHED }, VIEW_LONG_OPTIONS,
		{ 0 }
	};
	int c, r;

	while ((c = getopt_long(argc, argv, "hf:m:s:o:" FILTER_SHORTOPTS, opts, NULL)) != -1) {
		switch (c) {
		case 'h': fputs(help, stdout); return 0;
		case 'f': co->format = optarg; break;
		case 'o': co->out = optarg; break;
		case OPT_NO_SORT: co->no_sort = 1; break;
		case OPT_FOR_LLVM: co->for_llvm = 1; break;
		case OPT_SCHED: co->sched.path = optarg; break;
		case OPT_NO_SCHED: co->sched.disabled = 1; break;
		default:
			r = cmd_view_option(c, optarg, "convert", &co->view);
			if (r == 1)
				fputs(help, stderr);
			if (r)
				return 2;
		}
	}
	if (co->no_sort && filter_opts_active(&co->view.filter)) {
		fprintf(stderr, "fdr convert: the filters keep whole calls of the log "
			"sorted by TSC: not with --no-sort\n");
		return 2;
	}
	if (co->for_llvm && ((co->format && strcmp(co->format, "yaml")) || co->no_sort)) {
		fprintf(stderr, "fdr convert: --for-llvm-xray writes sorted YAML: "
			"not with --format %s or --no-sort\n", co->format ? co->format : "yaml");
		return 2;
	}
	if (co->for_llvm)
		co->format = "yaml";
	if (!co->format || (strcmp(co->format, "yaml") && strcmp(co->format, "chrome") &&
			    strcmp(co->format, "perfetto"))) {
		fprintf(stderr, "fdr convert: --format %s: expected yaml, chrome or perfetto\n",
			co->format ? co->format : "missing");
		return 2;
	}
	if (optind < argc - 1) {
		fprintf(stderr, "fdr convert: expected at most one DIR or LOG\n%s", help);
		return 2;
	}
	co->in = optind < argc ? argv[optind] : NULL;
	return filter_opts_finish(&co->view.filter, "fdr convert") ? 2 : -1;
}

/* What was added, on stderr: the user should know the export is not the
 * log byte for byte. */
static void export_for_llvm(struct out_buffer *o, const struct fdr_trace *t,
			    const struct symbols *syms)
{
	size_t enters = 0, exits = 0;

	if (write_llvm_export(o, t, syms, &enters, &exits)) {
		if (!o->error)
			o->error = ENOMEM;
		return;
	}
	if (enters || exits)
		fprintf(stderr, "fdr convert: --for-llvm-xray: added %zu Enter records "
			"(data fdr-entry-lost) and %zu Exit records (data fdr-exit-lost) "
			"for what the ring overwrote\n", enters, exits);
}

/* What one conversion reads: the log expanded (t), or, streaming (t
 * NULL), the log itself. */
struct convert_in {
	const struct fdr_trace *t;
	const struct fdr_log *log;
	const char *path;		/* of the log, for its errors */
	const struct symbols *syms;
	const struct arg_specs *args;	/* fdr record -A/-R's, or NULL */
	const struct fdr_thread_table *threads;
	const struct fdr_sched *sched;
};

/* Write the format to o; 1 when the log (streamed) does not verify. */
static int write_format(const struct convert_opts *co, struct out_buffer *o,
			const struct convert_in *in)
{
	struct fdr_reader_error err;

	if (!in->t) {
		if (!strcmp(co->format, "yaml") ? !write_yaml_stream(o, in->log, in->syms, &err) :
		    !write_perfetto_stream(o, in->log, in->syms, in->args, in->threads, in->sched, &err))
			return 0;
		report_log_error("convert", in->path, &err);
		return 1;
	}
	if (co->for_llvm)
		export_for_llvm(o, in->t, in->syms);
	else if (!strcmp(co->format, "yaml"))
		write_yaml(o, in->t, in->syms);
	else if (!strcmp(co->format, "perfetto"))
		write_perfetto(o, in->t, in->syms, in->args, in->threads, in->sched);
	else
		write_chrome(o, in->t, in->syms, in->args, in->threads, in->sched);
	return 0;
}

static int convert(const struct convert_opts *co, const struct convert_in *in)
{
	struct out_buffer o;
	char tmp[4096];
	int fd = out_file_open("convert", co->out, tmp, sizeof(tmp));
	int r, bad_log = 0;

	if (fd < 0)
		return 1;
	if (out_init(&o, fd) == 0) {
		bad_log = write_format(co, &o, in);
		if (!bad_log)
			out_flush(&o);
	}
	if (o.error)
		fprintf(stderr, "fdr convert: writing %s: %s\n",
			co->out ? co->out : "standard output", strerror(o.error));
	r = out_file_finish("convert", co->out, tmp, fd, o.error || bad_log ? 1 : 0);
	out_release(&o);
	return r;
}

/* Perfetto and sorted YAML stream the log unless a filter needs the
 * whole trace (--for-llvm-xray needs it too). */
static bool streams(const struct convert_opts *co)
{
	if (filter_opts_active(&co->view.filter))
		return false;
	return !strcmp(co->format, "perfetto") ||
	       (!strcmp(co->format, "yaml") && !co->no_sort && !co->for_llvm);
}

/* Expand the log (sorted by TSC unless --no-sort), filter, convert. */
static int convert_trace(const struct convert_opts *co, struct convert_in *in)
{
	struct fdr_reader_error err;
	struct fdr_trace trace;
	int r;

	if (fdr_trace_build(&trace, in->log, co->no_sort ? 0 : FDR_TRACE_SORT_BY_TSC, &err)) {
		report_log_error("convert", in->path, &err);
		return 1;
	}
	/* before the output is opened: a bad filter leaves no file */
	r = view_filter_apply(&co->view.filter, &trace, in->syms, "fdr convert");
	in->t = &trace;
	if (r == 0)
		r = convert(co, in);
	fdr_trace_free(&trace);
	return r;
}

/* Load what convert reads beside the log, convert, release; the status. */
static int convert_log(const struct convert_opts *co, const struct data_source *ds,
		       struct fdr_log *log)
{
	struct fdr_thread_table *threads;
	struct fdr_sched *sched = NULL;
	struct symbols *syms;
	int r;

	if (load_symbols("convert", &co->view.syms, ds, &syms))
		return 1;
	if (load_thread_table("convert", ds->log, &co->view.threads, &threads) ||
	    (strcmp(co->format, "yaml") && sched_load("fdr convert", ds->log, &co->sched, &sched))) {
		fdr_thread_table_free(threads);
		symbols_free(syms);
		return 1;
	}
	struct convert_in in = { NULL, log, ds->log, syms, ds->args.n ? &ds->args : NULL,
				  threads, sched };

	r = streams(co) ? convert(co, &in) : convert_trace(co, &in);
	fdr_sched_close(sched);
	fdr_thread_table_free(threads);
	symbols_free(syms);
	return r;
}

int cmd_convert(int argc, char **argv)
{
	struct convert_opts co = { 0 };
	struct data_source ds;
	struct fdr_log *log;
	int r = parse(argc, argv, &co);

	if (r < 0 && fdr__data_open("convert", co.in, &ds))
		r = 1;
	if (r < 0) {
		log = open_log_or_report("convert", ds.log);
		r = log ? convert_log(&co, &ds, log) : 1;
		if (log)
			fdr_log_close(log);
		fdr__data_close(&ds);
	}
	filter_opts_free(&co.view.filter);
	return r;
}
