/* SPDX-License-Identifier: MIT */
/* writer_pool.h - the stress driver's writer processes: start, SIGKILL
 * at random, reap, replace. */
#ifndef REL_WRITER_POOL_H
#define REL_WRITER_POOL_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>
#include "writer.h"

#define POOL_MAX		32
#define POOL_MAX_LOSSES		16
/* A writer finishes its batch, joins its threads and detaches once it
 * sees the stop: well under a second even on a one-CPU TCG guest.  The
 * driver gives the region the same 30 s (STUCK_TIMEOUT_MS). */
#define POOL_STOP_TIMEOUT_MS	30000

/* A writer that ended in a way the stress does not expect: the driver
 * prints each one, since "lost" alone does not say what to look for. */
struct writer_loss {
	pid_t pid;
	int status;		/* waitpid()'s, when reaped */
	bool reaped;		/* false: waitpid() failed, status unknown */
	bool stop_timeout;	/* still running stop_timeout_ms after the
				 * stop: the pool SIGKILLed it */
};

struct writer_pool {
	struct writer_cfg cfg;
	unsigned nr;
	pid_t pids[POOL_MAX];
	unsigned long started, killed, exited_ok, exited_retry, exited_bad;
	unsigned seed;
	unsigned stop_timeout_ms;	/* 0: POOL_STOP_TIMEOUT_MS */
	/* The first POOL_MAX_LOSSES of the exited_bad writers. */
	struct writer_loss losses[POOL_MAX_LOSSES];
};

/* How the pool came to reap a writer: it tells whether a SIGKILL was the
 * pool's own, and whether that is a loss. */
enum pool_reap {
	POOL_REAP_EXITED,	/* it ended by itself (pool_reap, pool_stop) */
	POOL_REAP_KILLED,	/* pool_kill_one's random SIGKILL */
	POOL_REAP_STOP_TIMEOUT,	/* SIGKILLed for not exiting after the stop */
};

void pool_start(struct writer_pool *p, unsigned nr);
/* SIGKILL one writer chosen at random, reap it, start a replacement. */
void pool_kill_one(struct writer_pool *p);
/* Replace writers that exited on their own. */
void pool_reap(struct writer_pool *p);
/* Ask every writer to finish (tally stop), wait, SIGKILL stragglers. */
void pool_stop(struct writer_pool *p);

/* Count writer pid's end (waitpid() status) as ok, retry, killed or
 * lost; a loss is also recorded in p->losses. */
void pool_count_exit(struct writer_pool *p, pid_t pid, int status,
		     enum pool_reap how);
/* One line for a loss: the pid and why. */
void pool_loss_text(const struct writer_pool *p, const struct writer_loss *l,
		    char *buf, size_t len);

#endif
