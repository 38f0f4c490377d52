/* SPDX-License-Identifier: MIT */
/* writer_pool.h - the stress driver's writer processes: start, SIGKILL
 * at random, reap, replace. */
#ifndef REL_WRITER_POOL_H
#define REL_WRITER_POOL_H

#include <sys/types.h>
#include "writer.h"

#define POOL_MAX	32

struct writer_pool {
	struct writer_cfg cfg;
	unsigned nr;
	pid_t pids[POOL_MAX];
	unsigned long started, killed, exited_ok, exited_retry, exited_bad;
	unsigned seed;
};

void pool_start(struct writer_pool *p, unsigned nr);
/* SIGKILL one writer chosen at random, reap it, start a replacement. */
void pool_kill_one(struct writer_pool *p);
/* Replace writers that exited on their own. */
void pool_reap(struct writer_pool *p);
/* Ask every writer to finish (tally stop), wait, SIGKILL stragglers. */
void pool_stop(struct writer_pool *p);

#endif
