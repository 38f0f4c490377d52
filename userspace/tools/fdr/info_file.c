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
 *   log	log.xray
 *   sched	log.xray.sched		(when the kernel's view was recorded)
 *   argv	<arg>	<arg>...
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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

static const char *instr_name(const struct prog *p)
{
	if (p->script)
		return "unknown";
	if (p->libcall_only)
		return "libcall";
	switch (p->elf.instr) {
	case FDR_INSTR_XRAY: return "xray";
	case FDR_INSTR_CYG: return "cyg";
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

int fdr__info_write(const char *dir, const struct prog *p, char **argv,
		    const struct backend *b, const struct record_opts *o,
		    const struct fdr_status *st, const struct flush_summary *sum)
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
		fprintf(f, "mode\tstream\nrecords_dropped\t%llu\n",
			(unsigned long long)sum->dropped);
	fputs("log\t" FDR_LOG_NAME "\n", f);
	if (sum->sched)
		fputs("sched\t" FDR_LOG_NAME ".sched\n", f);
	fputs("argv", f);
	for (char **a = argv; *a; a++) {
		fputc('\t', f);
		put_escaped(f, *a);
	}
	fputc('\n', f);
	bad = ferror(f);
	if (fclose(f) || bad)
		goto fail;
	return 0;
fail:
	fprintf(stderr, "fdr record: cannot write %s: %s\n", path, strerror(errno));
	return FDR_EXIT_FAILED;
}
