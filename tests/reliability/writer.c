// SPDX-License-Identifier: MIT
/* writer.c - see writer.h. */
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <time.h>
#include <unistd.h>
#include <fdr.h>
#include "pattern.h"
#include "region_view.h"
#include "writer.h"

#define MAX_SLOTS	64

struct slot {
	const struct writer_cfg *cfg;
	pthread_t thread;
	unsigned seed;
	int running;		/* atomic: 0 when the thread is done */
};

void write_pair(uint32_t uid, uint64_t k)
{
	uint32_t outer = pattern_outer(uid, k);

	fdr_enter_arg((int32_t)outer, pattern_arg(uid, k));
	if (pattern_has_inner(k)) {
		fdr_enter((int32_t)pattern_inner(uid, k));
		fdr_exit((int32_t)pattern_inner(uid, k));
	}
	fdr_exit((int32_t)outer);
}

static void pause_us(unsigned us)
{
	struct timespec ts = { .tv_sec = us / 1000000, .tv_nsec = (long)(us % 1000000) * 1000 };

	if (us)
		nanosleep(&ts, NULL);
}

/* Record the confirmed batch [k0, k1] of generation gen. */
static void confirm(struct tally *t, struct tally_entry **e, uint32_t uid,
		    uint32_t gen, uint64_t k0, uint64_t k1)
{
	if (*e && (*e)->generation == gen && (*e)->last_k + 1 == k0)
		tally_extend(*e, k1);
	else
		*e = tally_append(t, uid, gen, k0, k1);
	__atomic_fetch_add(&t->pairs_confirmed, k1 - k0 + 1, __ATOMIC_RELAXED);
}

static void *writer_thread(void *arg)
{
	struct slot *s = arg;
	const struct writer_cfg *cfg = s->cfg;
	struct tally *t = cfg->tally;
	uint32_t uid = tally_new_uid(t), hint = 0;
	unsigned span = cfg->max_batches - cfg->min_batches + 1;
	unsigned batches = cfg->min_batches + (unsigned)rand_r(&s->seed) % span;
	struct tally_entry *e = NULL;
	uint64_t k = 0;

	for (unsigned b = 0; b < batches && !__atomic_load_n(&t->stop, __ATOMIC_RELAXED); b++) {
		struct view_snap pre, post;

		view_snapshot(&pre, &hint);
		for (unsigned i = 0; i < cfg->batch; i++)
			write_pair(uid, k + i);
		view_snapshot(&post, &hint);
		if (pre.live && post.live && pre.generation == post.generation)
			confirm(t, &e, uid, pre.generation, k, k + cfg->batch - 1);
		else
			e = NULL;	/* a gap: the next confirmed range is new */
		__atomic_fetch_add(&t->pairs_written, cfg->batch, __ATOMIC_RELAXED);
		k += cfg->batch;
		pause_us(cfg->batch_sleep_us);
	}
	__atomic_store_n(&s->running, 0, __ATOMIC_RELEASE);
	return NULL;
}

static void start_slot(struct slot *s)
{
	pthread_attr_t attr;

	pthread_attr_init(&attr);
	pthread_attr_setstacksize(&attr, 256 * 1024);
	s->running = 1;
	if (pthread_create(&s->thread, &attr, writer_thread, s)) {
		s->running = 0;
		s->thread = 0;
	}
	pthread_attr_destroy(&attr);
}

/*
 * Attach, or exit with a code that says why (writer_pool.c prints it).
 * -ENODATA: attached between RESET and INIT: libfdr follows within
 * 100 ms, unseen by the confirm logic; start over instead.  (A RESET
 * between libfdr's STATUS and its mmap is -ENODATA too: dev_map asks
 * again.)
 */
static void attach(const struct writer_cfg *cfg)
{
	int ret = fdr_attach(cfg->target);

	if (ret == -ENODATA) {
		__atomic_fetch_add(&cfg->tally->attach_retries, 1, __ATOMIC_RELAXED);
		_exit(WRITER_EXIT_NOT_ATTACHED);
	}
	if (ret < 0) {
		fprintf(stderr, "writer %d: fdr_attach(%s): %s\n", (int)getpid(),
			cfg->target, strerror(-ret));
		_exit(WRITER_EXIT_ATTACH_FAILED);
	}
	ret = view_open(cfg->target, cfg->hold_check);
	if (ret < 0) {
		fprintf(stderr, "writer %d: view_open(%s): %s\n", (int)getpid(),
			cfg->target, strerror(-ret));
		_exit(WRITER_EXIT_VIEW_FAILED);
	}
}

void writer_main(const struct writer_cfg *cfg)
{
	struct slot slots[MAX_SLOTS] = { { 0 } };
	unsigned n = cfg->threads < MAX_SLOTS ? cfg->threads : MAX_SLOTS;

	/* Die with the driver, never linger writing into a later run. */
	prctl(PR_SET_PDEATHSIG, SIGKILL);
	attach(cfg);
	for (unsigned i = 0; i < n; i++) {
		slots[i].cfg = cfg;
		slots[i].seed = cfg->seed * 131u + i;
		start_slot(&slots[i]);
	}
	while (!__atomic_load_n(&cfg->tally->stop, __ATOMIC_RELAXED) &&
	       getppid() != 1) {
		for (unsigned i = 0; i < n; i++) {
			if (__atomic_load_n(&slots[i].running, __ATOMIC_ACQUIRE))
				continue;
			if (slots[i].thread)
				pthread_join(slots[i].thread, NULL);
			start_slot(&slots[i]);
		}
		pause_us(1000);
	}
	for (unsigned i = 0; i < n; i++)
		if (slots[i].thread)
			pthread_join(slots[i].thread, NULL);
	fdr_detach();
	_exit(0);
}
