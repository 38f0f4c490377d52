// SPDX-License-Identifier: MIT
/* writer_pool.c - see writer_pool.h. */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
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

static void count_exit(struct writer_pool *p, int status)
{
	if (WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL)
		return;		/* ours, counted by pool_kill_one */
	if (WIFEXITED(status) && WEXITSTATUS(status) == 0)
		p->exited_ok++;
	else if (WIFEXITED(status) && WEXITSTATUS(status) == WRITER_EXIT_NOT_ATTACHED)
		p->exited_retry++;
	else if (WIFEXITED(status) && WEXITSTATUS(status) == VIEW_EXIT_TABLE_FULL)
		p->exited_ok++;		/* region_view's table was full */
	else
		p->exited_bad++;
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
	if (waitpid(p->pids[i], &status, 0) == p->pids[i]) {
		p->killed += WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL;
		count_exit(p, status);
	}
	start_one(p, i);
}

void pool_reap(struct writer_pool *p)
{
	for (unsigned i = 0; i < p->nr; i++) {
		int status;

		if (p->pids[i] > 0 && waitpid(p->pids[i], &status, WNOHANG) != p->pids[i])
			continue;
		if (p->pids[i] > 0)
			count_exit(p, status);
		start_one(p, i);
	}
}

void pool_stop(struct writer_pool *p)
{
	struct timespec tick = { 0, 10 * 1000 * 1000 };

	__atomic_store_n(&p->cfg.tally->stop, 1, __ATOMIC_RELEASE);
	for (int waited = 0; waited < 1000; waited++) {
		unsigned alive = 0;

		for (unsigned i = 0; i < p->nr; i++) {
			int status;

			if (p->pids[i] <= 0)
				continue;
			if (waitpid(p->pids[i], &status, WNOHANG) == p->pids[i]) {
				count_exit(p, status);
				p->pids[i] = 0;
			} else {
				alive++;
			}
		}
		if (!alive)
			return;
		nanosleep(&tick, NULL);
	}
	for (unsigned i = 0; i < p->nr; i++)
		if (p->pids[i] > 0) {
			kill(p->pids[i], SIGKILL);
			waitpid(p->pids[i], NULL, 0);
			p->exited_bad++;
		}
}
