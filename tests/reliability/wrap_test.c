// SPDX-License-Identifier: MIT
/*
 * wrap_test.c - a flight recorder whose ring wrapped, judged the way the
 * stress judges it (issue 31).  A forced interleaving, nothing left to
 * timing:
 *
 *  1. one thread, pinned to CPU A, records pairs into its first buffer
 *     (pool A), confirming every batch as a stress writer does;
 *  2. pinned to CPU B it fills that buffer, then takes buffers from pool B
 *     until pool B's ring went round more than once: the thread's second
 *     buffer, its oldest in pool B, is recycled while its first (pool A)
 *     stays - the middle of its stream is legitimately gone;
 *  3. finalize; fdrd --auto-reset flushes and re-initializes the region
 *     *before* the judge looks (what a loaded host does to the stress
 *     driver): the region's counters of that generation are gone.
 *
 * The judge must accept this log (it is what a flight recorder does),
 * from facts it is sure of, and still check what must hold.  A second
 * round without the wrap must have every confirmed pair in its log.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <fdr.h>
#include "log_judge.h"
#include "region_setup.h"
#include "region_view.h"
#include "ring_facts.h"
#include "tap.h"
#include "writer.h"

#define BUF_SIZE	4096
#define BUFS_PER_CPU	4
#define BATCH		16
#define WAIT_MS		30000

struct wrap {
	char target[64], out[256], errfile[300], fdrd_err[300];
	struct tools tools;
	struct fdr_ctl *ctl;
	struct tally *tally;
	pid_t fdrd;
	int cpu[2];
	uint32_t uid;
	uint64_t k;
};

static uint64_t now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000 + (uint64_t)ts.tv_nsec / 1000000;
}

/* Two CPUs this process may run on, or -1. */
static int two_cpus(int cpu[2])
{
	cpu_set_t set;
	int n = 0;

	if (sched_getaffinity(0, sizeof(set), &set))
		return -1;
	for (int c = 0; c < CPU_SETSIZE && n < 2; c++)
		if (CPU_ISSET(c, &set))
			cpu[n++] = c;
	return n == 2 ? 0 : -1;
}

static int pin(int cpu)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	return sched_setaffinity(0, sizeof(set), &set);
}

static struct fdr_status status(struct wrap *w)
{
	struct fdr_status st = { .size = sizeof(st) };

	if (fdr_ctl_status(w->ctl, &st))
		st.state = FDR_STATE_UNINITIALIZED;
	return st;
}

/* n pairs in batches, each confirmed as writer.c confirms them. */
static void record(struct wrap *w, unsigned n)
{
	struct tally_entry *e = NULL;
	uint32_t hint = 0;

	for (unsigned done = 0; done < n; done += BATCH) {
		struct view_snap pre, post;

		view_snapshot(&pre, &hint);
		for (unsigned i = 0; i < BATCH; i++)
			write_pair(w->uid, w->k + i);
		view_snapshot(&post, &hint);
		if (pre.live && post.live && pre.generation == post.generation) {
			if (e && e->generation == pre.generation)
				tally_extend(e, w->k + BATCH - 1);
			else
				e = tally_append(w->tally, w->uid, pre.generation,
						 w->k, w->k + BATCH - 1);
		}
		w->k += BATCH;
	}
}

/* Finalize generation gen and wait until fdrd flushed it and the region
 * is recording again (a later generation). */
static int finalize_and_wait(struct wrap *w, uint32_t gen)
{
	uint64_t end = now_ms() + WAIT_MS;
	struct fdr_status st;

	fdr_ctl_finalize(w->ctl);
	do {
		st = status(w);
		if (st.state == FDR_STATE_INITIALIZED && st.generation > gen)
			return 0;
		fdr_ctl_wait(w->ctl, st.state, st.flush_state, 20);
	} while (now_ms() < end);
	tap_diag("generation %u: fdrd did not flush and re-init in %d ms", gen, WAIT_MS);
	return -1;
}

/*
 * Judge gen-<gen>.xray as the stress driver does (log_judge.c); *ring:
 * what fdrd's side table says the ring lost.
 */
static bool judge(struct wrap *w, uint32_t gen, struct judge_stats *js,
		  struct ring_facts *ring)
{
	char log[300];
	struct judge_job job = {
		.tools = &w->tools, .log = log, .errfile = w->errfile,
		.tally = w->tally, .generation = gen,
	};
	bool ok;

	snprintf(log, sizeof(log), "%s/gen-%u.xray", w->out, gen);
	ok = judge_log(&job, js);
	if (!ring_facts_read(log, ring))
		ring->buffers_recycled = ring->records_dropped = UINT64_MAX;
	return ok;
}

static int start_fdrd(struct wrap *w)
{
	char *argv[] = { w->tools.fdrd, "--foreground", "--target", w->target,
			 "--output-dir", w->out, "--pattern", "gen-<generation>.xray",
			 "--grace-ms", "0", "--auto-reset", NULL };

	snprintf(w->fdrd_err, sizeof(w->fdrd_err), "%s/fdrd.err", w->out);
	w->fdrd = tools_spawn(argv, w->fdrd_err);
	return w->fdrd > 0 ? 0 : -1;
}

static int setup(struct wrap *w)
{
	snprintf(w->target, sizeof(w->target), "embedded:rel-wrap-%d", (int)getpid());
	snprintf(w->out, sizeof(w->out), "%s/rel-wrap.XXXXXX",
		 getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
	if (!mkdtemp(w->out))
		return -1;
	snprintf(w->errfile, sizeof(w->errfile), "%s/tool.err", w->out);
	setenv("FDR_OPTIONS", "func_duration_threshold_us=0", 1);
	w->tally = tally_create(1024);
	if (!w->tally || region_fresh(&w->ctl, w->target, BUF_SIZE, BUFS_PER_CPU, 0) ||
	    start_fdrd(w) || fdr_attach(w->target) || view_open(w->target, false))
		return -1;
	w->uid = tally_new_uid(w->tally);
	return 0;
}

/* Round 1: the wrap.  A buffer holds fewer than 4096 / 32 = 128 pairs,
 * so pool B takes over 3 * BUFS_PER_CPU buffers: it goes round twice,
 * recycling at least BUFS_PER_CPU of them. */
static void round_wrap(struct wrap *w, struct judge_stats *js)
{
	uint32_t gen = status(w).generation;
	struct ring_facts ring;
	bool ok;

	pin(w->cpu[0]);
	record(w, 4 * BATCH);
	pin(w->cpu[1]);
	record(w, 3 * BUFS_PER_CPU * 128);
	if (finalize_and_wait(w, gen)) {
		tap_ok(false, "wrap: generation %u flushed", gen);
		return;
	}
	ok = judge(w, gen, js, &ring);
	tap_ok(ring.buffers_recycled >= BUFS_PER_CPU && ring.buffers_recycled != UINT64_MAX &&
	       ring.records_dropped == 0,
	       "wrap: the side table says the ring recycled (%llu buffers, %llu records dropped)",
	       (unsigned long long)ring.buffers_recycled,
	       (unsigned long long)ring.records_dropped);
	tap_ok(ok, "wrap: a log whose ring wrapped, judged after fdrd's re-init, passes the stress checks");
}

/* Round 2: no wrap (one buffer's worth): every confirmed pair is there. */
static void round_plain(struct wrap *w, struct judge_stats *js)
{
	uint32_t gen = status(w).generation;
	uint64_t before = js->confirmed_ranges, checked;
	struct ring_facts ring;
	bool ok;

	w->uid = tally_new_uid(w->tally);
	w->k = 0;
	record(w, 4 * BATCH);
	fdr_thread_release();
	if (finalize_and_wait(w, gen)) {
		tap_ok(false, "plain: generation %u flushed", gen);
		return;
	}
	ok = judge(w, gen, js, &ring);
	checked = js->confirmed_ranges - before;
	tap_ok(ring.buffers_recycled == 0 && ring.records_dropped == 0,
	       "plain: the side table says the ring lost nothing");
	tap_ok(ok && checked > 0,
	       "plain: without a wrap every confirmed pair is in the log (%llu ranges checked)",
	       (unsigned long long)checked);
}

/* A passing run leaves nothing behind. */
static void remove_out(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *e;

	if (!d)
		return;
	while ((e = readdir(d)))
		if (e->d_name[0] != '.')
			unlinkat(dirfd(d), e->d_name, 0);
	closedir(d);
	rmdir(dir);
}

int main(void)
{
	static struct wrap w;
	struct judge_stats js = { .diag_left = 20 };
	int rc;

	tools_find(&w.tools);
	if (!w.tools.fdrd[0]) {
		tap_skip("fdrd not found (set FDRD)", "wrap");
		return tap_done();
	}
	if (two_cpus(w.cpu)) {
		tap_skip("needs two CPUs to run on", "wrap");
		return tap_done();
	}
	if (setup(&w)) {
		tap_ok(false, "wrap: set up %s (%s)", w.target, strerror(errno));
		return tap_done();
	}
	round_wrap(&w, &js);
	round_plain(&w, &js);
	fdr_detach();
	if (w.fdrd > 0) {
		kill(w.fdrd, SIGTERM);
		waitpid(w.fdrd, NULL, 0);
	}
	region_teardown(w.ctl, w.target);
	rc = tap_done();
	if (rc)
		tap_diag("logs kept in %s", w.out);
	else
		remove_out(w.out);
	return rc;
}
