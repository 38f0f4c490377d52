// SPDX-License-Identifier: MIT
/*
 * stress.c - the stress driver (issue 6): writer processes × churning
 * threads × finalize/flush/reset cycles by fdrd --auto-reset × SIGKILLed
 * writers.  Every generation's log must pass fdrlog verify, llvm-xray's
 * verify (where installed) and our scan, hold only the writers' pattern,
 * and contain every pair a writer confirmed before the finalize.
 *
 * The driver walks generations: whatever ended one (our finalize, the
 * kernel's crash finalize after a SIGKILL), its log gen-<G>.xray is judged
 * once the region has moved on to a later generation.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include "log_judge.h"
#include "stress_judge.h"
#include "region_setup.h"
#include "stress_opts.h"
#include "tap.h"
#include "writer_pool.h"

#define TALLY_CAPACITY		(1u << 22)
#define STUCK_TIMEOUT_MS	30000
struct stress {
	struct stress_opts o;
	struct tools tools;
	struct fdr_ctl *ctl;
	struct tally *tally;
	struct writer_pool pool;
	struct stress_judge judge;
	pid_t fdrd;
	int fdrd_status;
	char fdrd_err[600];
	unsigned seed;
	uint32_t first_gen;
	unsigned long cycles, stuck;
};

static uint64_t now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000 + (uint64_t)ts.tv_nsec / 1000000;
}

static void sleep_ms(unsigned ms)
{
	struct timespec ts = { ms / 1000, (long)(ms % 1000) * 1000000 };

	while (nanosleep(&ts, &ts) && errno == EINTR)
		;
}

static int status_of(struct stress *s, struct fdr_status *st)
{
	memset(st, 0, sizeof(*st));
	st->size = sizeof(*st);
	return fdr_ctl_status(s->ctl, st);
}

static bool fdrd_alive(struct stress *s)
{
	if (s->fdrd > 0 && waitpid(s->fdrd, &s->fdrd_status, WNOHANG) == s->fdrd)
		s->fdrd = 0;
	return s->fdrd > 0;
}

/* Wait until the region is INITIALIZED in a generation > after. */
static int wait_initialized_after(struct stress *s, uint32_t after,
				  uint32_t *gen)
{
	uint64_t deadline = now_ms() + STUCK_TIMEOUT_MS;
	struct fdr_status st;

	while (now_ms() < deadline && fdrd_alive(s)) {
		if (status_of(s, &st) == 0 && st.state == FDR_STATE_INITIALIZED &&
		    st.generation > after) {
			*gen = st.generation;
			return 0;
		}
		fdr_ctl_wait(s->ctl, st.state, st.flush_state, 20);
	}
	tap_diag("region stuck: state %s flush %s generation %u, fdrd %s",
		 fdr_state_name(st.state), fdr_flush_state_name(st.flush_state),
		 st.generation, s->fdrd > 0 ? "running" : "gone");
	return -1;
}

/* One cycle of generation gen: maybe a SIGKILL, then our finalize
 * (unless a crash finalize came first). */
static void run_cycle(struct stress *s, uint32_t gen)
{
	unsigned span = s->o.max_cycle_ms - s->o.min_cycle_ms + 1;
	unsigned cycle = s->o.min_cycle_ms + (unsigned)rand_r(&s->seed) % span;
	unsigned kill_at = (unsigned)rand_r(&s->seed) % (cycle + 1);
	bool kill = (unsigned)rand_r(&s->seed) % 100 < s->o.kill_percent;
	struct fdr_status st;

	/*
	 * The churn check wants a kill whenever kills are asked for: a short
	 * run on a slow guest (a few cycles) must not pass them all by chance.
	 */
	if (s->o.kill_percent && !s->pool.killed && s->cycles >= 2)
		kill = true;

	if (kill) {
		sleep_ms(kill_at);
		pool_kill_one(&s->pool);
		cycle -= kill_at;
	}
	sleep_ms(cycle);
	pool_reap(&s->pool);
	if (status_of(s, &st) == 0 && st.generation == gen &&
	    st.state == FDR_STATE_INITIALIZED)
		fdr_ctl_finalize(s->ctl);	/* EBUSY: a crash was faster */
	s->cycles++;
}

static int start_fdrd(struct stress *s)
{
	char grace[16];
	char *argv[] = { s->tools.fdrd, "--foreground", "--target", s->o.target,
			 "--output-dir", s->o.out, "--pattern", "gen-<generation>.xray",
			 "--grace-ms", grace, "--auto-reset", NULL };

	snprintf(grace, sizeof(grace), "%u", s->o.grace_ms);
	snprintf(s->fdrd_err, sizeof(s->fdrd_err), "%s/fdrd.err", s->o.out);
	s->fdrd = tools_spawn(argv, s->fdrd_err);
	return s->fdrd > 0 ? 0 : -1;
}

static int stop_fdrd(struct stress *s)
{
	if (s->fdrd <= 0)
		return -1;
	kill(s->fdrd, SIGTERM);
	waitpid(s->fdrd, &s->fdrd_status, 0);
	s->fdrd = 0;
	return WIFEXITED(s->fdrd_status) ? WEXITSTATUS(s->fdrd_status) : 128 + WTERMSIG(s->fdrd_status);
}

static int setup(struct stress *s)
{
	bool device = !target_is_embedded(s->o.target);
	uint32_t flags = s->o.no_crash_finalize ? FDR_INIT_NO_CRASH_FINALIZE : 0;
	struct fdr_status st;

	if (!s->o.out[0]) {
		snprintf(s->o.out, sizeof(s->o.out), "%s/rel-stress.XXXXXX",
			 getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
		if (!mkdtemp(s->o.out))
			return -1;
	} else {
		mkdir(s->o.out, 0755);
	}
	s->tally = tally_create(TALLY_CAPACITY);
	if (!s->tally || region_fresh(&s->ctl, s->o.target, s->o.buffer_size,
				      s->o.buffers_per_cpu, flags) < 0)
		return -1;
	if (status_of(s, &st) < 0)
		return -1;
	s->first_gen = st.generation;
	s->pool.cfg = (struct writer_cfg){
		.target = s->o.target, .tally = s->tally, .threads = s->o.threads,
		.batch = s->o.batch, .batch_sleep_us = s->o.batch_sleep_us,
		.min_batches = s->o.min_batches, .max_batches = s->o.max_batches,
		.hold_check = s->o.hold_check || device,
	};
	s->pool.seed = s->seed = s->o.seed;
	setenv("FDR_OPTIONS", "func_duration_threshold_us=0", 1);
	s->judge = (struct stress_judge){
		.tools = &s->tools, .tally = s->tally, .out = s->o.out,
		.export_dir = s->o.export_dir, .keep = s->o.keep,
	};
	if (start_fdrd(s) < 0 || judge_start(&s->judge, s->first_gen) < 0)
		return -1;
	pool_start(&s->pool, s->o.procs);
	return 0;
}

static void run(struct stress *s)
{
	uint64_t end = now_ms() + (uint64_t)s->o.seconds * 1000;
	uint32_t gen = s->first_gen;

	while (now_ms() < end && (!s->o.max_cycles || s->cycles < s->o.max_cycles)) {
		run_cycle(s, gen);
		if (wait_initialized_after(s, gen, &gen) < 0) {
			s->stuck++;
			break;
		}
		judge_below(&s->judge, gen);
	}
	if (s->stuck) {
		judge_finish(&s->judge, gen);
		return;
	}
	/* The last generation too: finalize it, let fdrd write it. */
	pool_stop(&s->pool);
	fdr_ctl_finalize(s->ctl);
	if (wait_initialized_after(s, gen, &gen) < 0)
		s->stuck++;
	judge_finish(&s->judge, gen);
}

/* Each lost writer and why: "lost" alone does not say what to look for. */
static void report_losses(const struct writer_pool *p)
{
	unsigned long shown = p->exited_bad < POOL_MAX_LOSSES ? p->exited_bad : POOL_MAX_LOSSES;
	char line[200];

	for (unsigned long i = 0; i < shown; i++) {
		pool_loss_text(p, &p->losses[i], line, sizeof(line));
		tap_diag("stress: lost: %s", line);
	}
	if (p->exited_bad > shown)
		tap_diag("stress: lost: %lu more not kept", p->exited_bad - shown);
}

static void report(struct stress *s, int fdrd_rc)
{
	const struct verdicts *v = s->judge.v;
	const struct judge_stats *j = &v->js;
	const struct tally *t = s->tally;

	tap_diag("stress: target %s%s, %u procs x %u threads, out %s", s->o.target,
		 s->o.no_crash_finalize ? " (no crash finalize)" : "",
		 s->o.procs, s->o.threads, s->o.out);
	tap_diag("stress: cycles=%lu generations=%u logs=%lu threads=%llu kills=%lu records=%llu records_checked=%llu pairs=%llu (of %llu made) confirmed_pairs=%llu malformed=%lu",
		 s->cycles, v->next_gen - s->first_gen, j->logs,
		 (unsigned long long)t->threads_started, s->pool.killed,
		 (unsigned long long)j->records, (unsigned long long)j->records_checked,
		 (unsigned long long)j->pairs, (unsigned long long)t->pairs_written,
		 (unsigned long long)t->pairs_confirmed,
		 j->malformed + j->fdrlog_fail + j->xray_fail - j->tool_errors);
	tap_diag("stress: finalize ioctl=%lu crash=%lu; empty generations=%lu; logs whose ring recycled or dropped (no tally check)=%lu; verifier runs that failed to start=%lu; writer restarts (not attached)=%lu; writers lost otherwise=%lu",
		 v->finalize_ioctl, v->finalize_crash, v->empty_gens,
		 j->unchecked_tally, j->tool_errors, s->pool.exited_retry,
		 s->pool.exited_bad);
	tap_ok(s->stuck == 0 && s->cycles > 0, "stress: %lu cycles, the region always came back (fdrd --auto-reset)", s->cycles);
	if (s->tools.fdrlog[0])
		tap_ok(j->logs > 0 && j->fdrlog_runs == j->logs && j->fdrlog_fail == 0,
		       "stress: %lu of %lu logs pass fdrlog verify", j->fdrlog_runs - j->fdrlog_fail, j->logs);
	else
		tap_skip("fdrlog not found (set FDRLOG)", "stress: fdrlog verify");
	if (s->tools.xray[0])
		tap_ok(j->xray_fail == 0 && j->xray_runs == j->logs,
		       "stress: %lu of %lu logs pass llvm-xray fdr-dump --verify", j->xray_runs - j->xray_fail, j->logs);
	else
		tap_skip("llvm-xray-19 not here (the host's vm-check runs it)", "stress: llvm-xray fdr-dump --verify");
	tap_ok(j->malformed == 0 && j->records > 0,
	       "stress: independent scan: %llu records, %lu malformed logs", (unsigned long long)j->records, j->malformed);
	tap_ok(j->pattern_fail == 0 && j->pairs > 0,
	       "stress: every record is the writers' pattern (%llu pairs, %llu records)", (unsigned long long)j->pairs,
	       (unsigned long long)j->records_checked);
	tap_ok(j->ring_unknown == 0 && j->logs > 0,
	       "stress: every log's side table says what its ring lost (%lu of %lu recycled buffers or dropped records)",
	       j->unchecked_tally, j->logs);
	tap_ok(j->tally_fail == 0 && v->lost_logs == 0 && j->confirmed_ranges > 0,
	       "stress: every pair confirmed before its finalize is in its log (%llu ranges, %llu pairs)",
	       (unsigned long long)j->confirmed_ranges, (unsigned long long)j->confirmed_pairs);
	report_losses(&s->pool);
	tap_ok(t->threads_started > (uint64_t)s->o.procs * s->o.threads &&
	       (s->o.kill_percent == 0 || s->pool.killed > 0) && s->pool.exited_bad == 0,
	       "stress: churn happened: %llu threads, %lu writers SIGKILLed, %lu lost otherwise",
	       (unsigned long long)t->threads_started, s->pool.killed, s->pool.exited_bad);
	tap_ok(fdrd_rc == 0, "stress: fdrd exits 0 on SIGTERM (got %d)", fdrd_rc);
}

/* A clean run leaves nothing behind; a failing one keeps its evidence. */
static void remove_out(struct stress *s)
{
	unlink(s->fdrd_err);
	unlink(s->judge.errfile);
	rmdir(s->o.out);
}

int main(int argc, char **argv)
{
	static struct stress s;
	int ret = stress_opts_parse(&s.o, argc, argv), fdrd_rc;

	if (ret)
		return ret == 1 ? 0 : 2;
	signal(SIGPIPE, SIG_IGN);
	tools_find(&s.tools);
	if (!s.tools.fdrd[0]) {
		tap_skip("fdrd not found (set FDRD)", "stress");
		return tap_done();
	}
	if (!target_is_embedded(s.o.target) && access(s.o.target, F_OK) < 0) {
		tap_skip("no device node", "stress on %s", s.o.target);
		return tap_done();
	}
	if (setup(&s) < 0) {
		tap_ok(false, "stress: set up %s (%s)", s.o.target, strerror(errno));
		pool_stop(&s.pool);
		stop_fdrd(&s);
		return tap_done();
	}
	run(&s);
	pool_stop(&s.pool);
	fdrd_rc = stop_fdrd(&s);
	report(&s, fdrd_rc);
	region_teardown(s.ctl, s.o.target);
	if (s.judge.v->failed_logs == 0 && s.judge.v->kept == 0)
		remove_out(&s);
	return tap_done();
}
