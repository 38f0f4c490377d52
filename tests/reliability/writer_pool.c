// SPDX-License-Identifier: MIT
/* writer_pool.c - see writer_pool.h. */
#include <errno.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include "region_view.h"
#include "writer_pool.h"

static void start_one(struct writer_pool *p, unsigned i)
{
	pid_t pid;

	fflush(stdout);
	fflush(stderr);
	p->cfg.seed = (unsigned)rand_r(&p->seed);
	pid = fork();
	if (pid == 0)
		writer_main(&p->cfg);
	p->pids[i] = pid > 0 ? pid : 0;
	p->started += pid > 0;
}

static void count_lost(struct writer_pool *p, const struct writer_loss *l)
{
	if (p->exited_bad < POOL_MAX_LOSSES)
		p->losses[p->exited_bad] = *l;
	p->exited_bad++;
}

void pool_count_exit(struct writer_pool *p, pid_t pid, int status,
		     enum pool_reap how)
{
	bool sigkill = WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL;
	int code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;

	if (sigkill && how == POOL_REAP_KILLED) {
		p->killed++;
		return;
	}
	/*
	 * A writer that exited by itself just before the pool's SIGKILL
	 * landed (kill_one's, or the stop's after its last look) is judged
	 * by its own status: the kill found a zombie.
	 */
	if (code == 0 || code == VIEW_EXIT_TABLE_FULL)
		p->exited_ok++;		/* TABLE_FULL: region_view's table */
	else if (code == WRITER_EXIT_NOT_ATTACHED)
		p->exited_retry++;
	else
		count_lost(p, &(struct writer_loss){
			.pid = pid, .status = status, .reaped = true,
			.stop_timeout = sigkill && how == POOL_REAP_STOP_TIMEOUT });
}

static const char *exit_code_name(int code)
{
	switch (code) {
	case WRITER_EXIT_ATTACH_FAILED:	return " (fdr_attach failed)";
	case WRITER_EXIT_VIEW_FAILED:	return " (region_view could not open the target)";
	default:			return "";
	}
}

void pool_loss_text(const struct writer_pool *p, const struct writer_loss *l,
		    char *buf, size_t len)
{
	unsigned timeout_ms = p->stop_timeout_ms ? p->stop_timeout_ms : POOL_STOP_TIMEOUT_MS;
	int st = l->status;

	if (l->stop_timeout || !l->reaped)
		snprintf(buf, len, "writer %d did not exit within %u.%03u s of the stop (SIGKILLed by the pool%s)",
			 (int)l->pid, timeout_ms / 1000, timeout_ms % 1000,
			 l->reaped ? "" : "; then not reaped");
	else if (WIFEXITED(st))
		snprintf(buf, len, "writer %d exited with code %d%s", (int)l->pid,
			 WEXITSTATUS(st), exit_code_name(WEXITSTATUS(st)));
	else if (WIFSIGNALED(st))
		snprintf(buf, len, "writer %d killed by signal %d (%s), not the pool's SIGKILL%s",
			 (int)l->pid, WTERMSIG(st), strsignal(WTERMSIG(st)),
			 WCOREDUMP(st) ? ", core dumped" : "");
	else
		snprintf(buf, len, "writer %d: wait status 0x%x", (int)l->pid, (unsigned)st);
}

void pool_start(struct writer_pool *p, unsigned nr)
{
	p->nr = nr < POOL_MAX ? nr : POOL_MAX;
	for (unsigned i = 0; i < p->nr; i++)
		start_one(p, i);
}

void pool_kill_one(struct writer_pool *p)
{
	unsigned i = (unsigned)rand_r(&p->seed) % p->nr;
	int status;

	if (p->pids[i] <= 0 || kill(p->pids[i], SIGKILL) < 0)
		return;
	if (waitpid(p->pids[i], &status, 0) == p->pids[i])
		pool_count_exit(p, p->pids[i], status, POOL_REAP_KILLED);
	start_one(p, i);
}

void pool_reap(struct writer_pool *p)
{
	for (unsigned i = 0; i < p->nr; i++) {
		int status;

		if (p->pids[i] > 0 && waitpid(p->pids[i], &status, WNOHANG) != p->pids[i])
			continue;
		if (p->pids[i] > 0)
			pool_count_exit(p, p->pids[i], status, POOL_REAP_EXITED);
		start_one(p, i);
	}
}

static uint64_t now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000 + (uint64_t)ts.tv_nsec / 1000000;
}

/* Reap the writers that have exited; returns how many still run. */
static unsigned reap_exited(struct writer_pool *p)
{
	unsigned alive = 0;

	for (unsigned i = 0; i < p->nr; i++) {
		int status;

		if (p->pids[i] <= 0)
			continue;
		if (waitpid(p->pids[i], &status, WNOHANG) == p->pids[i]) {
			pool_count_exit(p, p->pids[i], status, POOL_REAP_EXITED);
			p->pids[i] = 0;
		} else {
			alive++;
		}
	}
	return alive;
}

/* The slot is cleared: a second pool_stop must not signal or count the
 * pid again (it may belong to another process by then). */
static void kill_straggler(struct writer_pool *p, unsigned i)
{
	pid_t pid = p->pids[i];
	int status;

	kill(pid, SIGKILL);
	if (waitpid(pid, &status, 0) == pid)
		pool_count_exit(p, pid, status, POOL_REAP_STOP_TIMEOUT);
	else
		count_lost(p, &(struct writer_loss){ .pid = pid, .stop_timeout = true });
	p->pids[i] = 0;
}

void pool_stop(struct writer_pool *p)
{
	unsigned timeout_ms = p->stop_timeout_ms ? p->stop_timeout_ms : POOL_STOP_TIMEOUT_MS;
	uint64_t deadline = now_ms() + timeout_ms;
	struct timespec tick = { 0, 10 * 1000 * 1000 };

	__atomic_store_n(&p->cfg.tally->stop, 1, __ATOMIC_RELEASE);
	/* A deadline, not a count of ticks: the time printed for a
	 * straggler is the time it had. */
	while (reap_exited(p) && now_ms() < deadline)
		nanosleep(&tick, NULL);
	for (unsigned i = 0; i < p->nr; i++)
		if (p->pids[i] > 0)
			kill_straggler(p, i);
}
