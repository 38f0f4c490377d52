// SPDX-License-Identifier: MIT
/*
 * cmd_info.c - `fdr info [DIR|LOG]`: what was recorded, as `uftrace info`
 * shows it: the machine, the program and its run, and the recording (its
 * backend, mode, threshold, trigger, region, counts and how it ended),
 * from DIR/info, the log's header and its side table.  A directory an
 * older fdr wrote lacks some facts: they show as "-".
 */
#include <stdarg.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <fdr_reader.h>

#include "commands.h"
#include "data_source.h"
#include "record.h"
#include "symbols.h"

static const char help[] =
	"usage: fdr info [DIR|LOG]\n"
	"What the recording in DIR (default ./fdr.data) holds, as `uftrace info`:\n"
	"the machine (host, kernel, CPU, distribution), the program (command line,\n"
	"executable and build-id, tasks, exit status, elapsed and CPU time, peak\n"
	"memory) and the recording (backend, mode, threshold, trigger, region and\n"
	"TSC rate, records, recycled buffers, drops, what ended it, scheduling data).\n";

/* The keys of DIR/info that fdr info shows, as read. */
#define INFO_ARGS_SHOWN 8

struct info {
	char *kv[64][2];
	size_t n;
	/* "args" lines, one a function with an -A/-R/-a spec: -a writes
	 * thousands, so they are counted and a few kept, apart */
	char *args[INFO_ARGS_SHOWN];
	size_t nargs;
};

static int keep_args(struct info *in, const char *value)
{
	if (in->nargs < INFO_ARGS_SHOWN && !(in->args[in->nargs] = strdup(value)))
		return -1;
	in->nargs++;
	return 0;
}

static int keep(const char *key, const char *value, void *arg)
{
	struct info *in = arg;

	if (!strcmp(key, "args"))
		return keep_args(in, value);
	if (in->n == sizeof(in->kv) / sizeof(in->kv[0]))
		return 0;
	in->kv[in->n][0] = strdup(key);
	in->kv[in->n][1] = strdup(value);
	if (!in->kv[in->n][0] || !in->kv[in->n][1])
		return -1;
	in->n++;
	return 0;
}

/* The value of key, or "-". */
static const char *get(const struct info *in, const char *key)
{
	for (size_t i = 0; i < in->n; i++)
		if (!strcmp(in->kv[i][0], key))
			return in->kv[i][1];
	return "-";
}

static void row(const char *name, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void row(const char *name, const char *fmt, ...)
{
	va_list ap;

	printf("# %-20s: ", name);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
}

/* A tab-separated list as words. */
static void row_list(const char *name, const char *prefix, const char *list)
{
	printf("# %-20s: %s", name, prefix);
	for (; *list; list++)
		putchar(*list == '\t' ? ' ' : *list);
	putchar('\n');
}

static void heading(const char *title)
{
	printf("#\n# %s\n# ", title);
	for (size_t i = 0; title[i]; i++)
		putchar('=');
	putchar('\n');
}

static void system_info(const struct info *in)
{
	const char *at = get(in, "recorded_at");
	char when[64] = "-";
	time_t t = (time_t)strtoll(at, NULL, 10);
	struct tm tm;

	if (strcmp(at, "-") && gmtime_r(&t, &tm))
		strftime(when, sizeof(when), "%a %b %e %H:%M:%S %Y UTC", &tm);
	printf("# system information\n# ==================\n");
	row("program version", "fdr %s", get(in, "fdr_version"));
	row("recorded on", "%s", when);
	row_list("cmdline", "fdr ", get(in, "cmdline"));
	row("cpu info", "%s (%s online)", get(in, "cpu"), get(in, "ncpus"));
	row("kernel version", "%s", get(in, "kernel"));
	row("hostname", "%s", get(in, "hostname"));
	row("distro", "%s", get(in, "distro"));
}

static void task_list(const struct data_source *ds)
{
	char path[PATH_MAX + 80];
	struct fdr_thread_table *tt;
	struct fdr_reader_error err;
	size_t n;

	snprintf(path, sizeof(path), "%s.threads", ds->log);
	if (fdr_thread_table_load(&tt, path, &err)) {
		row("number of tasks", "- (no side table %s)", path);
		return;
	}
	n = fdr_thread_table_count(tt);
	row("number of tasks", "%zu", n);
	printf("# %-20s: ", "task list");
	for (size_t i = 0; i < n; i++) {
		const struct fdr_thread_info *ti = fdr_thread_table_at(tt, i);

		printf("%s%d(%s)", i ? " " : "", ti->tid, ti->comm);
	}
	putchar('\n');
	fdr_thread_table_free(tt);
}

static double us_to_s(const char *us)
{
	return strcmp(us, "-") ? strtod(us, NULL) / 1e6 : 0.0;
}

static void process_info(const struct info *in, const struct data_source *ds)
{
	const char *exit = get(in, "exit");

	heading("process information");
	task_list(ds);
	row("exe image", "%s", get(in, "exe"));
	row("build id", "%s", get(in, "build-id"));
	row("instrumentation", "%s", get(in, "instrumentation"));
	if (!strncmp(exit, "signal\t", 7))
		row("exit status", "terminated by SIG%s", exit + 7);
	else if (strcmp(exit, "-"))
		row("exit status", "exited with code: %s", exit);
	else
		row("exit status", "-");
	if (strcmp(get(in, "elapsed_ns"), "-"))
		row("elapsed time", "%.9f sec", strtod(get(in, "elapsed_ns"), NULL) / 1e9);
	else
		row("elapsed time", "-");
	if (strcmp(get(in, "cpu_user_us"), "-"))
		row("cpu time", "%.3f / %.3f sec (sys / user)",
		    us_to_s(get(in, "cpu_system_us")), us_to_s(get(in, "cpu_user_us")));
	else
		row("cpu time", "-");
	row("max rss", "%s KB", get(in, "max_rss_kb"));
}

static void threshold_row(const struct info *in)
{
	const char *t = get(in, "threshold_us");

	if (!strcmp(t, "default"))
		row("threshold", "%d us (the default: calls shorter were not kept)",
		    FDR_LIBFDR_THRESHOLD_US);
	else if (!strcmp(t, "FDR_OPTIONS"))
		row("threshold", "as $FDR_OPTIONS set it");
	else if (!strcmp(t, "0"))
		row("threshold", "0 (every call kept)");
	else
		row("threshold", "%s us (calls shorter were not kept)", t);
}

/* A function by name when the log's names are known, else #fid. */
static const char *fname(const struct symbols *syms, int32_t fid, char *tmp, size_t n)
{
	if (!fid)
		return "any function";
	if (syms)
		return symbols_name(syms, fid, tmp, n);
	snprintf(tmp, n, "#%d", fid);
	return tmp;
}

static void trigger_rows(const struct info *in, const struct data_source *ds,
			 const struct symbols *syms)
{
	const char *trig = get(in, "trigger");
	const struct data_trigger *f = &ds->trigger;
	char tmp[512];

	if (strcmp(trig, "-")) {
		unsigned long long ns = strtoull(trig, NULL, 10);
		const char *tab = strchr(trig, '\t');

		row("trigger", "a call of %s lasting %.3f ms",
		    fname(syms, tab ? (int32_t)strtol(tab + 1, NULL, 10) : 0, tmp, sizeof(tmp)),
		    ns / 1e6);
	}
	if (f->fired)
		row("finalized by", "the trigger: %s lasted %.3f ms (pid %d, tid %d)",
		    fname(syms, f->fid, tmp, sizeof(tmp)), f->duration_ns / 1e6, f->pid, f->tid);
	else if (!strncmp(get(in, "finalize"), "crash", 5))
		row("finalized by", "a crash: a recording thread died of SIG%s",
		    get(in, "finalize") + 6);
	else if (!strcmp(get(in, "finalize"), "ioctl"))
		row("finalized by", "fdr record, after the program's last process ended");
	else
		row("finalized by", "%s", get(in, "finalize"));
}

/* -A/-R/-a: "FID@SPEC" lines, shown as uftrace info shows its argspec. */
static void args_rows(const struct info *in, const struct symbols *syms)
{
	char tmp[512];

	if (!in->nargs)
		return;
	row("arguments", "%zu function(s) with a spec (fdr replay shows the values)",
	    in->nargs);
	for (size_t i = 0; i < in->nargs && i < INFO_ARGS_SHOWN; i++) {
		const char *at = strchr(in->args[i], '@');
		int32_t fid = (int32_t)strtol(in->args[i], NULL, 10);

		if (!at || fid <= 0)	/* DIR/info is the user's to write: say it */
			row("", "%s (not FID@SPEC)", in->args[i]);
		else
			row("", "%s@%s", fname(syms, fid, tmp, sizeof(tmp)), at + 1);
	}
	if (in->nargs > INFO_ARGS_SHOWN)
		row("", "... and %zu more (DIR/info lists them all)", in->nargs - INFO_ARGS_SHOWN);
}

static void region_row(const struct info *in, const struct fdr_log *log)
{
	unsigned cpus, per_cpu;
	unsigned long long size, hz;

	if (sscanf(get(in, "region"), "%u\t%u\t%llu\t%llu", &cpus, &per_cpu, &size, &hz) == 4)
		row("buffers", "%u per CPU x %u CPUs, %llu KiB each", per_cpu, cpus, size >> 10);
	else
		row("buffers", "-");
	if (log)
		hz = fdr_log_get_header(log)->cycle_frequency;
	else if (sscanf(get(in, "region"), "%*u\t%*u\t%*u\t%llu", &hz) != 1)
		hz = 0;
	if (hz)
		row("TSC rate", "%.6f GHz", hz / 1e9);
	else
		row("TSC rate", "-");
}

static void recording_info(const struct info *in, const struct data_source *ds,
			   const struct fdr_log *log, const struct symbols *syms)
{
	heading("recording");
	row("backend", "%s", !strcmp(get(in, "backend"), "embedded") ?
	    "a private embedded region" : get(in, "backend"));
	row("mode", "%s", !strcmp(get(in, "mode"), "stream") ?
	    "stream (every buffer written while the program ran)" :
	    "flight recorder (the last buffers, written at the end)");
	if (strcmp(get(in, "stream_stopped"), "-"))
		row("stream stopped", "%s: the log ends there, the later calls were not kept",
		    get(in, "stream_stopped"));
	threshold_row(in);
	trigger_rows(in, ds, syms);
	args_rows(in, syms);
	region_row(in, log);
	row("records", "%s in %s thread(s)", get(in, "records"), get(in, "threads"));
	row("buffers recycled", "%s", get(in, "buffers_recycled"));
	row("records dropped", "%s", get(in, "records_dropped"));
	if (strcmp(get(in, "sched"), "-"))
		row("scheduling data", "%s records (%s lost), in %s", get(in, "sched_records"),
		    get(in, "sched_lost"), get(in, "sched"));
	else
		row("scheduling data", "not recorded");
	row("log", "%s", ds->log);
}

int fdr__cmd_info(int argc, char **argv)
{
	struct info in = { .n = 0 };
	struct data_source ds;
	struct symbols *syms = NULL;
	struct fdr_reader_error err;
	struct fdr_log *log = NULL;
	const char *arg;
	int r = cmd_parse_plain(argc, argv, "info", help, &arg);

	if (r >= 0)
		return r;
	if (fdr__data_open("info", arg, &ds))
		return 1;
	if (!ds.have_info || fdr__info_read(ds.dir, keep, &in) < 0) {
		fprintf(stderr, "fdr info: %s has no info file: it was not written by fdr "
			"record (fdr dump shows a bare log)\n", ds.dir);
		fdr__data_close(&ds);
		return 1;
	}
	if (fdr_log_open_file(&log, ds.log, &err))
		log = NULL;	/* the header's TSC rate only; the region's instead */
	fdr__data_symbols("info", &ds, &syms);
	system_info(&in);
	process_info(&in, &ds);
	recording_info(&in, &ds, log, syms);
	symbols_free(syms);
	if (log)
		fdr_log_close(log);
	for (size_t i = 0; i < in.n; i++) {
		free(in.kv[i][0]);
		free(in.kv[i][1]);
	}
	for (size_t i = 0; i < in.nargs && i < INFO_ARGS_SHOWN; i++)
		free(in.args[i]);
	fdr__data_close(&ds);
	return 0;
}
