// SPDX-License-Identifier: MIT
/*
 * cmd_record.c - `fdr record`: check PROG, prepare DIR, take a region,
 * run PROG and its descendants, finalize, flush, put DIR in place.  Every
 * failure before the end leaves no DIR and no region behind, but one: a
 * stream whose write failed mid-run (disk full, ulimit -f) keeps DIR with
 * its log so far, and fdr record exits 125 (flush_stream.c).
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
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
	bool named;

	if (!o->trigger_ns)
		return;
	if (st->finalize_reason != FDR_FINALIZE_TRIGGER) {
		fprintf(stderr, "fdr record: the trigger did not fire: no call%s%s lasted "
			"%.3f ms; the log holds the end of the run\n",
			o->trigger_func ? " of " : "", o->trigger_func ? o->trigger_func : "",
			o->trigger_ns / 1e6);
		return;
	}
	/* a trigger on one function fires on that one: named as given */
	named = o->trigger_func && o->trigger_func[0] != '#';
	fprintf(stderr, "fdr record: the trigger stopped recording: function #%d%s%s%s lasted "
		"%.3f ms (pid %d, tid %d); the log ends with that call\n", st->finalize_fid,
		named ? " (" : "", named ? o->trigger_func : "", named ? ")" : "",
		st->finalize_duration_ns / 1e6, st->finalize_pid, st->finalize_tid);
}

/*
 * Why a stream lost records: the writers filled the ring before the
 * stream's thread looked again.  Its wait for a CPU says whether other
 * work on the machine kept it off, its longest append whether the write
 * itself blocked (the file system) (bench/stream/README.md).
 */
static void say_stream_lost(const struct flush_summary *s)
{
	char wait[200] = "";

	if (s->stream_wait_known)
		snprintf(wait, sizeof(wait), " (fdr's stream thread waited %.0f ms in all "
			 "for a CPU; its longest gap between two looks: %.1f ms; its longest "
			 "append: %.1f ms)", s->stream_wait_ns / 1e6, s->stream_gap_ns / 1e6,
			 s->stream_write_ns / 1e6);
	fprintf(stderr, "fdr record: the stream lost %llu records: PROG wrote faster "
		"than they reached the disk%s; more buffers (-n) absorb longer bursts\n",
		(unsigned long long)s->dropped, wait);
	if (s->stream_wait_known && !s->stream_rt)
		fprintf(stderr, "fdr record: the stream's thread ran at normal priority: "
			"real-time priority, which preempts other work at once, needs "
			"CAP_SYS_NICE or an RLIMIT_RTPRIO of 1 or more (ulimit -r 1)\n");
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
	if (s->stream_error)
		fprintf(stderr, "fdr record: the stream stopped while PROG ran (%s): %s/"
			FDR_LOG_NAME " holds its calls up to there, the later ones were not "
			"kept%s\n", strerror(-s->stream_error), d->final,
			s->stream_error == -EFBIG ? " (raise ulimit -f)" :
			s->stream_error == -ENOSPC ? " (free space on its file system)" : "");
	else if (o->stream && s->dropped)
		say_stream_lost(s);
	else if (!o->stream && s->recycled)
		fprintf(stderr, "fdr record: the ring wrapped: the log holds the last "
			"calls only; --stream keeps every record\n");
}

/*
 * After PROG: finalize, flush (or end the stream), describe; 0 or fdr's
 * exit status.  A stream is ended even when the finalize failed.
 */
static int collect(struct backend *b, struct data_dir *d, const struct prog *p,
		   const struct record_opts *o, struct stream_run *stream,
		   struct flush_summary *sum, struct fdr_status *st, const struct run_facts *run)
{
	struct arg_specs dso_args = { 0 };
	int r = fdr__backend_finalize(b, st), s = 0;

	if (stream)
		s = fdr__stream_finish(stream, st, sum);
	else if (!r)
		r = fdr__flush_log(b, st, d->staging, sum);
	r = r ? r : s;
	if (!r)
		r = fdr__xray_objects_names(d->staging, p);
	if (!r)
		r = p->libcall_only ? fdr__libcall_args(d->staging, &o->dso_args, &dso_args)
				    : fdr__xray_objects_args(d->staging, &o->dso_args, &dso_args);
	if (!r)
		r = fdr__info_write(d->staging, p, o, b, st, sum, run, &dso_args);
	arg_specs_free(&dso_args);
	return r;
}

static uint64_t ns_since(const struct timespec *t0)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (uint64_t)(t.tv_sec - t0->tv_sec) * 1000000000u + (uint64_t)t.tv_nsec -
	       (uint64_t)t0->tv_nsec;
}

/*
 * PROG's run (or the attached window of -p PID), for DIR/info: its start,
 * its length, and for a run of ours what it cost.
 */
static int run_measured(const struct prog *p, const struct record_opts *o,
			const struct run_env *env, struct backend *b, struct run_facts *run)
{
	struct timespec t0;
	int r;

	clock_gettime(CLOCK_REALTIME, &run->started);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	if (o->pid)
		r = fdr__attach_run(o, p, env, b);
	else
		r = fdr__run(p, o->argv, env, &run->wstatus);
	run->elapsed_ns = ns_since(&t0);
	getrusage(RUSAGE_CHILDREN, &run->usage);
	return r;
}

/*
 * An fdr-cc build records its library calls through its own runtime
 * (adapters/plt_self.c), asked by $FDR_LIBCALL; a static one has none.
 */
static int self_libcall_setup(const struct record_opts *o, const struct prog *p,
			      struct run_env *env)
{
	if (o->no_libcall || p->script || o->pid ||
	    (p->elf.instr != FDR_INSTR_XRAY && p->elf.instr != FDR_INSTR_CYG))
		return 0;
	if (!p->elf.dynamic) {
		fprintf(stderr, "fdr record: %s is statically linked: recording its own "
			"functions; it makes no calls into shared libraries to record\n",
			o->argv[0]);
		return 0;
	}
	if (o->nonly) {	/* -F: only the named functions, not their callees */
		fprintf(stderr, "fdr record: -F records only the functions it names: "
			"no calls into shared libraries\n");
		return 0;
	}
	env->libcall = o->nest_libcall ? "nest" : "1";
	fprintf(stderr, "fdr record: recording %s's functions and its calls into shared "
		"libraries%s (--no-libcall: not those)\n", o->argv[0],
		o->nest_libcall ? ", and theirs between libraries (--nest-libcall)" : "");
	return 0;
}

/* What the log will hold, said before PROG's own output. */
static int libcall_setup(const struct record_opts *o, const struct prog *p, char *so,
			 size_t sosz, struct run_env *env)
{
	int r;

	env->preload = NULL;
	env->libcall = NULL;
	if (!p->libcall_only)	/* instrumented: its own runtime hooks */
		return (r = fdr__patch_setup(o, p)) ? r : self_libcall_setup(o, p, env);
	if (fdr__libcall_find(so, sosz)) {
		fprintf(stderr, "fdr record: cannot find libfdr-plt.so, which records %s's "
			"library calls (not next to fdr, nor in $FDR_LIBDIR); run make in the "
			"fdr tree or set FDR_LIBDIR\n", o->argv[0]);
		return FDR_EXIT_FAILED;
	}
	env->preload = so;
	env->libcall = o->no_libcall ? "0" : o->nest_libcall ? "nest" : "1";
	if (o->npatch)
		return fdr__patch_setup(o, p);
	fprintf(stderr, "fdr record: %s is not instrumented: recording its calls into "
		"shared libraries only (not its own functions: rebuild it with fdr-cc for "
		"those, or give -P; %s)\n", o->argv[0],
		o->nest_libcall ? "and the calls between libraries, --nest-libcall"
				: "not calls between libraries: --nest-libcall");
	return 0;
}

static int record(const struct record_opts *o, const struct prog *p, const char *functions,
		  const char *dso_functions, const char *args, char **cmdline)
{
	struct run_facts run = { .cmdline = cmdline };
	char so[PATH_MAX];
	struct run_env env = { .threshold_us = o->threshold_us, .functions = functions,
			       .dso_functions = dso_functions, .args = p->libcall_only ? "" : args,
			       .plt_args = p->libcall_only ? args : "" };
	struct flush_summary sum = { 0 };
	struct fdr_status st = { 0 };
	struct stream_run *stream = NULL;
	struct backend b;
	struct data_dir d;
	int r = libcall_setup(o, p, so, sizeof(so), &env);

	if (r || (r = fdr__data_dir_begin(&d, o->out_dir)))
		return r;
	r = fdr__backend_open(&b, o);
	if (r)
		goto fail;
	env.target = b.target;
	env.symdir = d.staging;
	fdr__patch_dwarf(o, p, d.staging);
	if (o->stream && (r = fdr__stream_start(&b, d.staging, &stream))) {
		fdr__backend_close(&b);
		goto fail;
	}
	r = run_measured(p, o, &env, &b, &run);
	if (!r || stream)
		r = collect(&b, &d, p, o, stream, &sum, &st, &run) ?: r;
	fdr__backend_close(&b);
	if (!r)
		r = fdr__data_dir_commit(&d);
	if (r)
		goto fail;
	summary(&d, &b, o, &sum, run.wstatus);
	fdr__patch_summary(o, d.final);
	trigger_summary(o, &st);
	return sum.stream_error ? FDR_EXIT_FAILED : prog_status(run.wstatus);
fail:
	fdr__data_dir_abort(&d);
	if (r == FDR_EXIT_FAILED)
		fprintf(stderr, "fdr record: no data directory written\n");
	return r;
}

int fdr__cmd_record(int argc, char **argv)
{
	char functions[65536], dso_functions[16384], *args = NULL;
	struct record_opts o;
	struct prog p;
	int r = fdr__record_parse(argc, argv, &o);

	if (r < 0 && o.pid)
		r = fdr__attach_prog(&o, &p);
	if (r >= 0 || (!o.pid && (r = fdr__prog_check(o.argv[0], &p, !o.no_libcall || o.npatch))) ||
	    (r = fdr__record_filter(&p, &o, functions, sizeof(functions), dso_functions,
				    sizeof(dso_functions))) ||
	    (r = fdr__record_trigger_fid(&p, &o)) ||
	    (r = fdr__record_args(&p, &o, &args)))
		return r;
	fdr__msg_set_prefix("fdr record");
	fdr__msg_set_verbose(o.verbose);
	r = record(&o, &p, functions, dso_functions, args ? args : "", argv);
	fdr__record_args_free(&o);
	free(args);
	return r;
}
