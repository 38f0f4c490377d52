// SPDX-License-Identifier: MIT
/*
 * region_view.c - see region_view.h.  Mappings are never unmapped while
 * the process runs: another thread may be reading one.  A process that
 * used up the table exits (the driver starts a new one).
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>
#include <fdr.h>
#include "region_view.h"

#define MAX_VIEWS		128
#define REFRESH_INTERVAL_NS	(10ull * 1000 * 1000)

static struct {
	pthread_mutex_t lock;
	char target[256];
	bool hold_check;
	struct fdr_ctl *status_ctl;
	struct fdr_ctl *ctls[MAX_VIEWS];
	unsigned nr;
	const struct fdr_control *cur;	/* atomic */
	uint64_t next_refresh_ns;
} v = { .lock = PTHREAD_MUTEX_INITIALIZER };

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

static uint32_t load32(const uint32_t *p)
{
	return __atomic_load_n(p, __ATOMIC_ACQUIRE);
}

/* Map the region the target has now, if it is not the one we look at. */
static void refresh_locked(void)
{
	const struct fdr_control *c = __atomic_load_n(&v.cur, __ATOMIC_ACQUIRE);
	struct fdr_status st = { .size = sizeof(st) };
	struct fdr_ctl *ctl;

	if (fdr_ctl_status(v.status_ctl, &st) < 0 ||
	    st.state != FDR_STATE_INITIALIZED)
		return;
	if (c && load32(&c->state) == FDR_STATE_INITIALIZED &&
	    c->generation == st.generation)
		return;
	if (v.nr == MAX_VIEWS)
		_exit(VIEW_EXIT_TABLE_FULL);
	if (fdr_ctl_open(&ctl, v.target) < 0 || fdr_ctl_map(ctl, &c, NULL) < 0) {
		fdr_ctl_close(ctl);
		return;
	}
	v.ctls[v.nr++] = ctl;
	__atomic_store_n(&v.cur, c, __ATOMIC_RELEASE);
}

static void refresh(void)
{
	uint64_t now = now_ns();

	if (now < __atomic_load_n(&v.next_refresh_ns, __ATOMIC_RELAXED) ||
	    pthread_mutex_trylock(&v.lock))
		return;
	__atomic_store_n(&v.next_refresh_ns, now + REFRESH_INTERVAL_NS,
			 __ATOMIC_RELAXED);
	refresh_locked();
	pthread_mutex_unlock(&v.lock);
}

int view_open(const char *target, bool hold_check)
{
	int ret;

	snprintf(v.target, sizeof(v.target), "%s", target);
	v.hold_check = hold_check;
	ret = fdr_ctl_open(&v.status_ctl, target);
	if (ret < 0)
		return ret;
	pthread_mutex_lock(&v.lock);
	refresh_locked();
	pthread_mutex_unlock(&v.lock);
	return 0;
}

static bool is_mine(const struct fdr_buffer_desc *d, uint32_t gen,
		    int32_t pid, int32_t tid)
{
	return load32(&d->state) == FDR_BUF_HELD &&
	       __atomic_load_n(&d->owner_tid, __ATOMIC_RELAXED) == tid &&
	       __atomic_load_n(&d->owner_pid, __ATOMIC_RELAXED) == pid &&
	       __atomic_load_n(&d->generation, __ATOMIC_RELAXED) == gen;
}

/* Does the calling thread hold a buffer of generation gen in c? */
static bool holds_buffer(const struct fdr_control *c, uint32_t gen,
			 uint32_t *hint)
{
	const struct fdr_buffer_desc *d =
		(const void *)((const char *)c + c->descs_offset);
	int32_t pid = getpid(), tid = (int32_t)syscall(SYS_gettid);

	if (*hint < c->nr_buffers && is_mine(&d[*hint], gen, pid, tid))
		return true;
	for (uint32_t i = 0; i < c->nr_buffers; i++)
		if (is_mine(&d[i], gen, pid, tid)) {
			*hint = i;
			return true;
		}
	return false;
}

void view_snapshot(struct view_snap *s, uint32_t *hint)
{
	const struct fdr_control *c = __atomic_load_n(&v.cur, __ATOMIC_ACQUIRE);

	s->live = false;
	s->generation = 0;
	if (c && load32(&c->state) == FDR_STATE_INITIALIZED) {
		s->generation = __atomic_load_n(&c->generation, __ATOMIC_ACQUIRE);
		s->live = !v.hold_check || holds_buffer(c, s->generation, hint);
		/* the state again: the generation read belongs to it */
		if (load32(&c->state) != FDR_STATE_INITIALIZED)
			s->live = false;
	}
	if (!s->live)
		refresh();
}
