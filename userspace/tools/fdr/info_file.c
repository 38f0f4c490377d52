// SPDX-License-Identifier: MIT
/*
 * info_file.c - DIR/info: what the data directory was recorded from, so
 * that `fdr report` names functions with no extra flag (uftrace's
 * uftrace.data/info).  Text, one "key<TAB>value" per line, values escaped
 * like fdrd's side table (\\ \t \n):
 *
 *   fdr-data	1
 *   exe	/abs/path/prog
 *   build-id	<hex>|-
 *   instrumentation	xray|cyg|libcall|unknown  (libcall: not instrumented,
 *			its library calls only)
 *   backend	/dev/fdr|embedded
 *   threshold_us	<n>|default|FDR_OPTIONS
 *				(FDR_OPTIONS: no --threshold, but the user's
 *				$FDR_OPTIONS names one, which libfdr obeys)
 *   trigger	<ns>	<fid>		(--trigger; fid 0: any function)
 *   finalized	trigger	<fid>	<duration_ns>	<pid>	<tid>
 *   				(when the trigger ended the recording)
 *   mode	stream			(--stream)
 *   stream_stopped	<why>		(a write failed mid-run, disk full or
 *				ulimit -f: the log ends there)
 *   log	log.xray
 *   sched	log.xray.sched		(when the kernel's view was recorded)
 *   attached	<pid>	<buffers recycled>
 *				(fdr record -p: the log starts at an attach;
 *				with 0 recycled, every exit without its entry
 *				is a call that was running then)
 *   args	<fid>@<spec>		(fdr record -A/-R: one line a function,
 *				its values' types, arg_spec.h's language; a
 *				shared library's with the id it got in the run)
 *   argv	<arg>	<arg>...
 *
 * and what `fdr info` shows (uftrace info's), which nothing else reads:
 *
 *   fdr_version	<VERSION>
 *   cmdline	record	<option>...	(fdr's own arguments)
 *   recorded_at	<seconds since the epoch>.<ns>
 *   hostname, kernel, cpu, distro	<text>|-	ncpus	<n>
 *   exit	<status>|signal	<name>	(PROG's)
 *   elapsed_ns	<n>		cpu_user_us	<n>	cpu_system_us	<n>
 *   max_rss_kb	<n>			(PROG and its descendants)
 *   region	<cpus>	<buffers per cpu>	<buffer size>	<tsc_hz>
 *   records	<n>	threads	<n>	buffers_recycled	<n>	records_dropped	<n>
 *   finalize	exit|crash	<signal>|trigger|ioctl|none
 *   sched_records	<n>	sched_lost	<n>
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include "record.h"

static void put_escaped(FILE *f, const char *s)
{
	for (; *s; s++) {
		if (*s == '\\')
			fputs("\\\\", f);
		else if (*s == '\t')
			fputs("\\t", f);
		else if (*s == '\n')
			fputs("\\n", f);
		else
			fputc(*s, f);
	}
}

/* The types of the values -A/-R logged, for the readers. */
static void put_args(FILE *f, const struct arg_specs *a)
{
	char text[1024];

	for (size_t i = 0; i < a->n; i++)
		if (!arg_spec_text(&a->spec[i], text, sizeof(text)))
			fprintf(f, "args\t%d@%s\n", a->fid[i], text);
}

static const char *instr_name(const struct prog *p)
{
	if (p->script)
		return "unknown";
	if (p->libcall_only)
		return "libcall";
	switch (p->elf.instr) {
	case FDR_INSTR_XRAY: return "xray";
	case FDR_INSTR_CYG: return "cyg";
	case FDR_INSTR_PATCHABLE: return "patchable";
	default: return "unknown";
	}
}

/*
 * The threshold PROG ran with, so that fdr report can say which calls are
 * missing.  Without --threshold, libfdr takes $FDR_OPTIONS's if it names
 * one: fdr does not parse it again (libfdr's rule), it says only that the
 * value came from there.
 */
static void put_threshold(FILE *f, const struct record_opts *o)
{
	const char *fo = getenv("FDR_OPTIONS");

	if (o->threshold_us >= 0)
		fprintf(f, "threshold_us\t%ld\n", o->threshold_us);
	else if (fo && strstr(fo, "func_duration_threshold_us"))
		fputs("threshold_us\tFDR_OPTIONS\n", f);
	else
		fputs("threshold_us\tdefault\n", f);
}

static void put_list(FILE *f, const char *key, char **v)
{
	fputs(key, f);
	for (; *v; v++) {
		fputc('\t', f);
		put_escaped(f, *v);
	}
	fputc('\n', f);
}

static void put_text(FILE *f, const char *key, const char *v)
{
	fprintf(f, "%s\t", key);
	put_escaped(f, v);
	fputc('\n', f);
}

static void put_host(FILE *f)
{
	struct host_facts h;

	fdr__host_facts(&h);
	put_text(f, "hostname", h.hostname);
	put_text(f, "kernel", h.kernel);
	put_text(f, "cpu", h.cpu);
	fprintf(f, "ncpus\t%ld\n", h.ncpus);
	put_text(f, "distro", h.distro);
}

static const char *finalize_name(uint32_t reason)
{
	switch (reason) {
	case FDR_FINALIZE_IOCTL: return "ioctl";
	case FDR_FINALIZE_CRASH: return "crash";
	case FDR_FINALIZE_TRIGGER: return "trigger";
	default: return "none";
	}
}

static void put_run(FILE *f, const struct record_opts *o, const struct run_facts *run)
{
	const struct rusage *u = &run->usage;

	fprintf(f, "fdr_version\t%s\n", FDR_VERSION_STRING);
	put_list(f, "cmdline", run->cmdline);
	fprintf(f, "recorded_at\t%lld.%09ld\n", (long long)run->started.tv_sec,
		run->started.tv_nsec);
	put_host(f);
	fprintf(f, "elapsed_ns\t%llu\n", (unsigned long long)run->elapsed_ns);
	if (o->pid)
		return;	/* attached: not our child, its status and costs are not ours */
	if (WIFSIGNALED(run->wstatus))
		fprintf(f, "exit\tsignal\t%s\n", sigabbrev_np(WTERMSIG(run->wstatus)) ?: "?");
	else
		fprintf(f, "exit\t%d\n", WEXITSTATUS(run->wstatus));
	fprintf(f, "cpu_user_us\t%lld\ncpu_system_us\t%lld\nmax_rss_kb\t%ld\n",
		(long long)u->ru_utime.tv_sec * 1000000 + u->ru_utime.tv_usec,
		(long long)u->ru_stime.tv_sec * 1000000 + u->ru_stime.tv_usec, u->ru_maxrss);
}

static void put_region(FILE *f, const struct fdr_status *st, const struct flush_summary *sum)
{
	fprintf(f, "region\t%u\t%u\t%llu\t%llu\n", st->nr_cpus, st->buffers_per_cpu,
		(unsigned long long)st->buffer_size, (unsigned long long)st->tsc_hz);
	fprintf(f, "records\t%llu\nthreads\t%llu\nbuffers_recycled\t%llu\nrecords_dropped\t%llu\n",
		(unsigned long long)sum->records, (unsigned long long)sum->threads,
		(unsigned long long)sum->recycled, (unsigned long long)sum->dropped);
	fprintf(f, "finalize\t%s", finalize_name(st->finalize_reason));
	if (st->finalize_reason == FDR_FINALIZE_CRASH)
		fprintf(f, "\t%s", sigabbrev_np((int)st->finalize_signal) ?: "?");
	fputc('\n', f);
	if (sum->sched)
		fprintf(f, "sched_records\t%llu\nsched_lost\t%llu\n",
			(unsigned long long)sum->sched_records, (unsigned long long)sum->sched_lost);
}

int fdr__info_write(const char *dir, const struct prog *p, const struct record_opts *o,
		    const struct backend *b, const struct fdr_status *st,
		    const struct flush_summary *sum, const struct run_facts *run,
		    const struct arg_specs *dso_args)
{
	char path[PATH_MAX + 16];
	FILE *f;
	int bad;

	snprintf(path, sizeof(path), "%s/" FDR_INFO_NAME, dir);
	f = fopen(path, "we");
	if (!f)
		goto fail;
	fputs("fdr-data\t1\nexe\t", f);
	put_escaped(f, p->path);
	fprintf(f, "\nbuild-id\t%s\ninstrumentation\t%s\nbackend\t%s\n",
		p->elf.build_id[0] ? p->elf.build_id : "-", instr_name(p),
		b->embedded ? "embedded" : b->target);
	put_threshold(f, o);
	if (o->trigger_ns)
		fprintf(f, "trigger\t%llu\t%d\n", (unsigned long long)o->trigger_ns,
			o->trigger_fid);
	if (st->finalize_reason == FDR_FINALIZE_TRIGGER)
		fprintf(f, "finalized\ttrigger\t%d\t%llu\t%d\t%d\n", st->finalize_fid,
			(unsigned long long)st->finalize_duration_ns, st->finalize_pid,
			st->finalize_tid);
	if (o->stream)
		fputs("mode\tstream\n", f);
	if (sum->stream_error)
		fprintf(f, "stream_stopped\t%s\n", strerror(-sum->stream_error));
	if (o->pid)
		fprintf(f, "attached\t%d\t%llu\n", (int)o->pid,
			(unsigned long long)st->buffers_recycled);
	fputs("log\t" FDR_LOG_NAME "\n", f);
	if (sum->sched)
		fputs("sched\t" FDR_LOG_NAME ".sched\n", f);
	put_args(f, &o->args);
	put_args(f, dso_args);
	put_list(f, "argv", o->argv);
	put_run(f, o, run);
	put_region(f, st, sum);
	bad = ferror(f);
	if (fclose(f) || bad)
		goto fail;
	return 0;
fail:
	fprintf(stderr, "fdr record: cannot write %s: %s\n", path, strerror(errno));
	return FDR_EXIT_FAILED;
}
