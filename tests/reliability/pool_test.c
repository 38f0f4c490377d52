// SPDX-License-Identifier: MIT
/*
 * pool_test.c - how the stress's writer pool counts a writer's end, and
 * what it says of each one it counts as lost (writer_pool.h).  Wait
 * statuses made by hand for every classification, then real children
 * through pool_stop: one exits badly, one never exits.
 */
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include "region_view.h"
#include "tap.h"
#include "tally.h"
#include "writer_pool.h"

struct verdict {
	unsigned long ok, retry, killed, bad;
};

static bool counted(const struct writer_pool *p, struct verdict want)
{
	CHECK(p->exited_ok == want.ok && p->exited_retry == want.retry &&
	      p->killed == want.killed && p->exited_bad == want.bad,
	      "ok %lu retry %lu killed %lu bad %lu; want %lu %lu %lu %lu",
	      p->exited_ok, p->exited_retry, p->killed, p->exited_bad,
	      want.ok, want.retry, want.killed, want.bad);
	return true;
}

/* One status, one reap: the counts after it and the loss's text. */
static bool classify(int status, enum pool_reap how, struct verdict want,
		     const char *text)
{
	struct writer_pool p = { 0 };
	char line[200] = "";

	pool_count_exit(&p, 4242, status, how);
	if (!counted(&p, want))
		return false;
	if (p.exited_bad)
		pool_loss_text(&p, &p.losses[0], line, sizeof(line));
	CHECK(!text == !p.exited_bad && (!text || strstr(line, text)),
	      "loss text \"%s\", want \"%s\"", line, text ? text : "(none)");
	return true;
}

static void test_statuses(void)
{
	tap_ok(classify(W_EXITCODE(0, 0), POOL_REAP_EXITED, (struct verdict){ .ok = 1 }, NULL),
	       "pool: exit 0 is a clean end");
	tap_ok(classify(W_EXITCODE(VIEW_EXIT_TABLE_FULL, 0), POOL_REAP_EXITED, (struct verdict){ .ok = 1 }, NULL),
	       "pool: region_view's full table is a clean end");
	tap_ok(classify(W_EXITCODE(WRITER_EXIT_NOT_ATTACHED, 0), POOL_REAP_EXITED, (struct verdict){ .retry = 1 }, NULL),
	       "pool: not attached is a restart");
	tap_ok(classify(W_EXITCODE(0, SIGKILL), POOL_REAP_KILLED, (struct verdict){ .killed = 1 }, NULL),
	       "pool: kill_one's own SIGKILL counts as killed");
	tap_ok(classify(W_EXITCODE(WRITER_EXIT_NOT_ATTACHED, 0), POOL_REAP_KILLED, (struct verdict){ .retry = 1 }, NULL),
	       "pool: a writer that exited before kill_one's SIGKILL is judged by its exit");
	tap_ok(classify(W_EXITCODE(0, 0), POOL_REAP_STOP_TIMEOUT, (struct verdict){ .ok = 1 }, NULL),
	       "pool: a writer that exited just before the stop's SIGKILL is judged by its exit");
	tap_ok(classify(W_EXITCODE(WRITER_EXIT_ATTACH_FAILED, 0), POOL_REAP_EXITED, (struct verdict){ .bad = 1 },
			"writer 4242 exited with code 5 (fdr_attach failed)"),
	       "pool: a failed attach is lost, with its pid and code");
	tap_ok(classify(W_EXITCODE(0, SIGKILL), POOL_REAP_EXITED, (struct verdict){ .bad = 1 },
			"writer 4242 killed by signal 9 (Killed), not the pool's SIGKILL"),
	       "pool: a SIGKILL that was not the pool's is lost (it was not counted at all before)");
	tap_ok(classify(W_EXITCODE(0, SIGSEGV), POOL_REAP_KILLED, (struct verdict){ .bad = 1 },
			"killed by signal 11"),
	       "pool: another signal during kill_one is lost, with its number");
	tap_ok(classify(W_EXITCODE(0, SIGKILL), POOL_REAP_STOP_TIMEOUT, (struct verdict){ .bad = 1 },
			"writer 4242 did not exit within 30.000 s of the stop (SIGKILLed by the pool)"),
	       "pool: a straggler SIGKILLed at the stop is lost, with the time it had");
}

static void test_many_losses(void)
{
	struct writer_pool p = { 0 };

	for (pid_t pid = 1; pid <= POOL_MAX_LOSSES + 4; pid++)
		pool_count_exit(&p, pid, W_EXITCODE(1, 0), POOL_REAP_EXITED);
	tap_ok(p.exited_bad == POOL_MAX_LOSSES + 4 &&
	       p.losses[POOL_MAX_LOSSES - 1].pid == POOL_MAX_LOSSES,
	       "pool: every loss counted, the first %d kept (%lu counted)",
	       POOL_MAX_LOSSES, p.exited_bad);
}

static pid_t child(int code, bool hang)
{
	pid_t pid = fork();

	if (pid == 0) {
		while (hang)
			pause();
		_exit(code);
	}
	return pid;
}

/* Real children through pool_stop: exit 0, exit 1, never. */
static void test_stop(void)
{
	struct tally *t = tally_create(1);
	struct writer_pool p = { .cfg.tally = t, .nr = 3, .stop_timeout_ms = 300 };
	struct timespec a, b;
	char l0[200] = "", l1[200] = "";
	double took;

	p.pids[0] = child(0, false);
	p.pids[1] = child(1, false);
	p.pids[2] = child(0, true);
	clock_gettime(CLOCK_MONOTONIC, &a);
	pool_stop(&p);
	clock_gettime(CLOCK_MONOTONIC, &b);
	took = (double)(b.tv_sec - a.tv_sec) + (double)(b.tv_nsec - a.tv_nsec) / 1e9;
	if (p.exited_bad == 2) {
		pool_loss_text(&p, &p.losses[0], l0, sizeof(l0));
		pool_loss_text(&p, &p.losses[1], l1, sizeof(l1));
	}
	tap_ok(p.exited_ok == 1 && p.exited_bad == 2 && strstr(l0, "exited with code 1") &&
	       strstr(l1, "did not exit within 0.300 s of the stop") && took >= 0.3,
	       "pool_stop: one ok, two lost: \"%s\", \"%s\" (%.2f s)", l0, l1, took);
	tap_ok(t && t->stop == 1, "pool_stop: set the tally's stop flag");
	pool_stop(&p);
	tap_ok(p.exited_bad == 2 && !p.pids[0] && !p.pids[1] && !p.pids[2],
	       "pool_stop: a second stop counts nobody again (%lu lost)", p.exited_bad);
}

int main(void)
{
	test_statuses();
	test_many_losses();
	test_stop();
	return tap_done();
}
