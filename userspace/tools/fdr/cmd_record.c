// SPDX-License-Identifier: MIT
/*
 * cmd_record.c - `fdr record`: check PROG, prepare DIR, take a region,
 * run PROG and its descendants, finalize, flush, put DIR in place.  Every
 * failure before the end leaves no DIR and no region behind.
 */
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>

#include "record.h"

static int prog_status(int wstatus)
{
	if (WIFSIGNALED(wstatus))
		return 128 + WTERMSIG(wstatus);
	return WEXITSTATUS(wstatus);
}

/* Did the trigger end the recording, and on which call? */
static void trigger_summary(const struct record_opts *o, const struct fdr_status *st)
{
	if (!o->trigger_ns)
		return;
	if (st->finalize_reason != FDR_FINALIZE_TRIGGER) {
		fprintf(stderr, "fdr record: the trigger did not fire: no call%s%s lasted "
			"%.3f ms; the log holds the end of the run\n",
			o->trigger_func ? " of " : "", o->trigger_func ? o->trigger_func : "",
			o->trigger_ns / 1e6);
		return;
	}
	fprintf(stderr, "fdr record: the trigger stopped recording: function #%d lasted "
		"%.3f ms (pid %d, tid %d); the log ends with that call\n", st->finalize_fid,
		st->finalize_duration_ns / 1e6, st->finalize_pid, st->finalize_tid);
}

static void summary(const struct data_dir *d, const struct backend *b,
		    const struct record_opts *o, const struct flush_summary *s, int wstatus)
{
	char how[64] = "", sched[96] = "";

	if (s->sched)
		snprintf(sched, sizeof(sched), ", %llu scheduling records (%llu lost)",
			 (unsigned long long)s->sched_records,
			 (unsigned long long)s->sched_lost);
	if (WIFSIGNALED(wstatus))
		snprintf(how, sizeof(how), "; PROG killed by SIG%s",
			 sigabbrev_np(WTERMSIG(wstatus)) ? sigabbrev_np(WTERMSIG(wstatus)) : "?");
	if (!s->written && o->threshold_us != 0)
		fprintf(stderr, "fdr record: %s: no records (no instrumented call lasted "
			"the threshold; try --threshold 0)%s\n", d->final, how);
	else if (!s->written)	/* every call was kept: none reached libfdr */
		fprintf(stderr, "fdr record: %s: no records: PROG made no instrumented "
			"call that reached the recorder (built without fdr-cc? see its "
			"messages above)%s\n", d->final, how);
	else
		fprintf(stderr, "fdr record: %s/" FDR_LOG_NAME ": %llu records, %llu thread%s, "
			"%llu buffers recycled, %llu dropped%s (%s)%s\n", d->final,
			(unsigned long long)s->records, (unsigned long long)s->threads,
			s->threads == 1 ? "" : "s", (unsigned long long)s->recycled,
			(unsigned long long)s->dropped, sched,
			b->embedded ? "private embedded region" : b->target, how);
	if (o->stream && s->dropped)
		fprintf(stderr, "fdr record: the stream lost %llu records: PROG wrote faster "
			"than they reached the disk; more buffers (-n) absorb longer bursts\n",
			(unsigned long long)s->dropped);
}

/*
 * After PROG: finalize, flush (or end the stream), describe; 0 or fdr's
 * exit status.  A stream is ended even when the finalize failed.
 */
static int collect(struct backend *b, struct data_dir *d, const struct prog *p,
		   const struct record_opts *o, struct stream_run *stream,
		   struct flush_summary *sum, struct fdr_status *st)
{
	int r = fdr__backend_finalize(b, st), s = 0;

	if (stream)
		s = fdr__stream_finish(stream, st, sum);
	else if (!r)
		r = fdr__flush_log(b, st, d->staging, sum);
	r = r ? r : s;
	if (!r)
		r = fdr__xray_objects_names(d->staging, p);
	if (!r)
		r = fdr__info_write(d->staging, p, o->argv, b, o, st, sum);
	return r;
}

static int record(const struct record_opts *o, const struct prog *p, const char *functions,
		  const char *dso_functions)
{
	struct run_env env = { .threshold_us = o->threshold_us, .functions = functions,
			       .dso_functions = dso_functions };
	struct flush_summary sum = { 0 };
	struct fdr_status st = { 0 };
	struct stream_run *stream = NULL;
	struct backend b;
	struct data_dir d;
	int wstatus = 0, r = fdr__data_dir_begin(&d, o->out_dir);

	if (r)
		return r;
	r = fdr__backend_open(&b, o);
	if (r)
		goto fail;
	env.target = b.target;
	env.symdir = d.staging;
	if (o->stream && (r = fdr__stream_start(&b, d.staging, &stream))) {
		fdr__backend_close(&b);
		goto fail;
	}
	r = fdr__run(p, o->argv, &env, &wstatus);
	if (!r || stream)
		r = collect(&b, &d, p, o, stream, &sum, &st) ?: r;
	fdr__backend_close(&b);
	if (!r)
		r = fdr__data_dir_commit(&d);
	if (r)
		goto fail;
	summary(&d, &b, o, &sum, wstatus);
	trigger_summary(o, &st);
	return prog_status(wstatus);
fail:
	fdr__data_dir_abort(&d);
	if (r == FDR_EXIT_FAILED)
		fprintf(stderr, "fdr record: no data directory written\n");
	return r;
}

int fdr__cmd_record(int argc, char **argv)
{
	char functions[65536], dso_functions[16384];
	struct record_opts o;
	struct prog p;
	int r = fdr__record_parse(argc, argv, &o);

	if (r >= 0 || (r = fdr__prog_check(o.argv[0], &p)) ||
	    (r = fdr__record_filter(&p, &o, functions, sizeof(functions), dso_functions,
				    sizeof(dso_functions))) ||
	    (r = fdr__record_trigger_fid(&p, &o)))
		return r;
	fdr__msg_set_prefix("fdr record");
	fdr__msg_set_verbose(o.verbose);
	return record(&o, &p, functions, dso_functions);
}
