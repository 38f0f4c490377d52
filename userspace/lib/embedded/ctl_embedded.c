// SPDX-License-Identifier: MIT
/*
 * ctl_embedded.c - the control backend for an embedded region.  There is
 * no kernel, so the controller applies the device's transition rules
 * itself, under flock() on the object so that concurrent controllers are
 * serialized, and wakes waiters with a futex on the state word.
 */
#include <errno.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>
#include <sys/file.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>
#include <linux/fdr_flush.h>
#include "internal.h"

#define WAIT_SLICE_MS	20

__FDR_NO_INSTRUMENT static uint32_t load_u32(const uint32_t *p)
{
	return atomic_load_explicit((_Atomic uint32_t *)p, memory_order_acquire);
}

__FDR_NO_INSTRUMENT static void set_u32(uint32_t *p, uint32_t v)
{
	atomic_store_explicit((_Atomic uint32_t *)p, v, memory_order_release);
}

__FDR_NO_INSTRUMENT static int emb_open(struct fdr_ctl *ctl)
{
	int ret = fdr__embedded_refresh(ctl);

	/* A region that does not exist yet is what INIT creates. */
	return ret == -ENOENT ? 0 : ret;
}

/*
 * Lock the object that currently has the name.  If another controller
 * replaced it while we waited for the lock, follow the name and retry.
 * -ENOENT when there is no object.
 */
__FDR_NO_INSTRUMENT static int lock_region(struct fdr_ctl *ctl)
{
	for (;;) {
		ino_t ino;
		int ret = fdr__embedded_refresh(ctl);

		if (ret < 0)
			return ret;
		ino = ctl->shm_ino;
		if (flock(ctl->fd, LOCK_EX) < 0)
			return -errno;
		ret = fdr__embedded_refresh(ctl);
		if (ret == 0 && ctl->shm_ino == ino)
			return 0;
		if (ctl->fd >= 0)
			flock(ctl->fd, LOCK_UN);
		if (ret < 0)
			return ret;
	}
}

__FDR_NO_INSTRUMENT static void unlock_region(struct fdr_ctl *ctl)
{
	if (ctl->fd >= 0)
		flock(ctl->fd, LOCK_UN);
}

__FDR_NO_INSTRUMENT static void set_state(struct fdr_control *c, uint32_t state)
{
	set_u32(&c->state, state);
	fdr__futex_wake_all(&c->state);
}

__FDR_NO_INSTRUMENT static int emb_init(struct fdr_ctl *ctl, const struct fdr_init *cfg)
{
	struct fdr_geometry g;
	struct fdr_control *c;
	struct fdr_init in;
	long ncpu = sysconf(_SC_NPROCESSORS_CONF);
	int ret = fdr__init_cfg_check(cfg, &in, ctl->detail, sizeof(ctl->detail));

	if (ret < 0)
		return ret;
	cfg = &in;	/* the caller's, in our size (a VER0 one has no trigger) */
	ret = fdr__geometry_compute(&g, cfg->buffer_size, cfg->buffers_per_cpu,
				    ncpu > 0 ? (uint32_t)ncpu : 1);
	if (ret < 0)
		return ret;
	ret = lock_region(ctl);
	if (ret == -ENOENT)
		return fdr__embedded_create(ctl, &g, 1, cfg);
	if (ret < 0)
		return ret;
	c = ctl->ectl;
	if (load_u32(&c->state) != FDR_STATE_UNINITIALIZED) {
		ret = -EBUSY;
	} else if (c->buffer_size == g.buffer_size && c->nr_cpus == g.nr_cpus &&
		   c->buffers_per_cpu == g.buffers_per_cpu &&
		   ctl->shm_size == g.map_size && ctl->ectl_len == g.control_size) {
		set_state(c, FDR_STATE_INITIALIZING);
		ret = fdr__embedded_reinit(ctl, &g, cfg);
	} else {
		/*
		 * Another geometry: a new object replaces this one.  Its
		 * writers see it stay UNINITIALIZED and re-attach by name.
		 * Closing the old object (in the refresh) drops our lock.
		 */
		return fdr__embedded_create(ctl, &g, c->generation + 1, cfg);
	}
	unlock_region(ctl);
	return ret;
}

__FDR_NO_INSTRUMENT static void stamp_finalize(struct fdr_control *c)
{
	c->finalize_reason = FDR_FINALIZE_IOCTL;
	c->finalize_signal = 0;
	c->finalize_pid = getpid();
	c->finalize_tid = 0;
	c->finalize_duration_ns = 0;
	c->finalize_fid = 0;
	c->finalize_time_ns = fdr__monotonic_ns();
}

/*
 * The same transition a writer fires (fdr__embedded_trigger, lock-free),
 * here under the controllers' lock too, then what FINALIZE does for the
 * dead: their HELD buffers are given back.
 */
__FDR_NO_INSTRUMENT static int emb_trigger(struct fdr_ctl *ctl,
				   const struct fdr_trigger *trig)
{
	int ret = lock_region(ctl);

	if (ret == -ENOENT)
		return -EBUSY;	/* no region: UNINITIALIZED */
	if (ret < 0)
		return ret;
	ret = fdr__embedded_trigger(ctl->ectl, trig, getpid(),
				    (pid_t)syscall(SYS_gettid));
	if (ret == 0)
		fdr__reclaim_dead_writers(ctl->ectl, ctl->ectl_len);
	unlock_region(ctl);
	return ret;
}

__FDR_NO_INSTRUMENT static int emb_finalize(struct fdr_ctl *ctl)
{
	int ret = lock_region(ctl);
	struct fdr_control *c = ctl->ectl;

	if (ret < 0)
		return ret;
	/* A CAS, not a store: a writer's trigger takes INITIALIZED away
	 * without the lock (fdr__embedded_trigger). */
	if (!fdr__embedded_begin_finalize(c)) {
		ret = -EBUSY;
	} else {
		fdr__futex_wake_all(&c->state);
		stamp_finalize(c);
		fdr__reclaim_dead_writers(c, ctl->ectl_len);
		set_state(c, FDR_STATE_FINALIZED);
	}
	unlock_region(ctl);
	return ret;
}

/*
 * The flush transitions, as fdr.ko makes them: uapi/linux/fdr_flush.h's
 * table.  The control page is shared memory a writer may have scribbled,
 * so a state or flush state out of the table's range allows nothing.
 */
__FDR_NO_INSTRUMENT static bool flush_allowed(const struct fdr_control *c,
				      enum fdr_flush_op op)
{
	uint32_t s = load_u32(&c->state), fs = load_u32(&c->flush_state);
	bool stream = c->flags & FDR_CTL_STREAM;

	return s < FDR_FLUSH_NR_STATES && fs < FDR_FLUSH_NR_FLUSH_STATES &&
	       (fdr_flush_rules[op].from[stream][s] & FDR_FLUSH_FROM(fs));
}

__FDR_NO_INSTRUMENT static int flush_transition(struct fdr_ctl *ctl, enum fdr_flush_op op)
{
	int ret = lock_region(ctl);
	struct fdr_control *c = ctl->ectl;

	if (ret < 0)
		return ret;
	if (!flush_allowed(c, op)) {
		ret = -EBUSY;
	} else {
		set_u32(&c->flush_state, fdr_flush_rules[op].to);
		/* Waiters sleep on the state word; wake them to re-check. */
		fdr__futex_wake_all(&c->state);
	}
	unlock_region(ctl);
	return ret;
}

__FDR_NO_INSTRUMENT static int emb_flush_begin(struct fdr_ctl *ctl)
{
	return flush_transition(ctl, FDR_FLUSH_OP_BEGIN);
}

__FDR_NO_INSTRUMENT static int emb_flush_done(struct fdr_ctl *ctl)
{
	return flush_transition(ctl, FDR_FLUSH_OP_DONE);
}

__FDR_NO_INSTRUMENT static int emb_flush_abort(struct fdr_ctl *ctl)
{
	return flush_transition(ctl, FDR_FLUSH_OP_ABORT);
}

__FDR_NO_INSTRUMENT static int emb_reset(struct fdr_ctl *ctl)
{
	int ret = lock_region(ctl);
	struct fdr_control *c = ctl->ectl;

	if (ret < 0)
		return ret;
	if (load_u32(&c->state) != FDR_STATE_FINALIZED ||
	    load_u32(&c->flush_state) == FDR_FLUSH_FLUSHING) {
		ret = -EBUSY;
	} else {
		set_u32(&c->flush_state, FDR_FLUSH_NOT_FLUSHING);
		c->finalize_reason = FDR_FINALIZE_NONE;
		set_state(c, FDR_STATE_UNINITIALIZED);
	}
	unlock_region(ctl);
	return ret;
}

__FDR_NO_INSTRUMENT static int emb_status(struct fdr_ctl *ctl, struct fdr_status *st)
{
	int ret = lock_region(ctl);

	if (ret < 0)
		return ret;
	/* Bounded by what ectl maps (the control area), not the object. */
	fdr__reclaim_dead_writers(ctl->ectl, ctl->ectl_len);
	fdr__status_from_control(ctl->ectl, ctl->ectl_len, st);
	st->map_size = ctl->shm_size;
	unlock_region(ctl);
	return 0;
}

/*
 * Sleep on the state word in short slices: flush-state changes and a
 * replaced object are noticed within one slice even without a wakeup.
 */
__FDR_NO_INSTRUMENT static int emb_wait(struct fdr_ctl *ctl, uint32_t state,
				uint32_t flush_state, int timeout_ms)
{
	uint64_t deadline = timeout_ms < 0 ? UINT64_MAX :
			    fdr__monotonic_ns() + (uint64_t)timeout_ms * 1000000;

	for (;;) {
		int ret = fdr__embedded_refresh(ctl);
		uint64_t now = fdr__monotonic_ns();
		int slice = WAIT_SLICE_MS;
		uint32_t s;

		if (ret < 0)
			return ret;
		s = load_u32(&ctl->ectl->state);
		if (s != state || load_u32(&ctl->ectl->flush_state) != flush_state)
			return 0;
		if (now >= deadline)
			return -ETIMEDOUT;
		if (deadline - now < (uint64_t)slice * 1000000)
			slice = (int)((deadline - now) / 1000000) + 1;
		ret = fdr__futex_wait(&ctl->ectl->state, s, slice);
		if (ret == -EINTR)
			return ret;
	}
}

/* No flock: a writer must not wait for a controller's INIT to finish. */
__FDR_NO_INSTRUMENT static int emb_peek(struct fdr_ctl *ctl, uint32_t *state,
				uint32_t *generation)
{
	int ret = fdr__embedded_refresh(ctl);

	if (ret < 0)
		return ret;
	*state = load_u32(&ctl->ectl->state);
	*generation = ctl->ectl->generation;
	return 0;
}

__FDR_NO_INSTRUMENT static int emb_map(struct fdr_ctl *ctl, int prot, void **addr,
			       size_t *len, struct fdr_region_view *view)
{
	int ret = fdr__embedded_refresh(ctl);
	struct fdr_region_view v;
	void *p;

	if (ret < 0)
		return ret;
	if (load_u32(&ctl->ectl->state) == FDR_STATE_UNINITIALIZED)
		return -ENODATA;
	/* Not MAP_POPULATE: INIT reserved the pages; each process maps in
	 * only the buffers it takes (buffer.c) or reads. */
	p = mmap(NULL, ctl->shm_size, prot, MAP_SHARED, ctl->fd, 0);
	if (p == MAP_FAILED)
		return -errno;
	/* no trusted party here: the page's geometry, checked and copied once,
	 * buffers and all inside the object */
	ret = fdr_region_view(&v, p, ctl->shm_size, NULL);
	if (ret == 0 && !v.buffers)
		ret = -EBADMSG;
	if (ret == 0 && view)
		*view = v;
	if (ret < 0) {
		munmap(p, ctl->shm_size);
		return ret;
	}
	*addr = p;
	*len = ctl->shm_size;
	return 0;
}

/* No kernel: every process of the region shares our pid namespace. */
__FDR_NO_INSTRUMENT static pid_t emb_owner_pid(struct fdr_ctl *ctl)
{
	(void)ctl;
	return getpid();
}

/* Scheduling records come from the kernel's probes; there is no kernel. */
__FDR_NO_INSTRUMENT static int emb_map_sched(struct fdr_ctl *ctl, void **addr,
				     size_t *len)
{
	(void)addr;
	(void)len;
	snprintf(ctl->detail, sizeof(ctl->detail),
		 "the embedded backend records no scheduling (only fdr.ko does)");
	return -ENODATA;
}

const struct fdr_ctl_ops fdr__embedded_ops = {
	.open = emb_open,
	.init = emb_init,
	.finalize = emb_finalize,
	.flush_begin = emb_flush_begin,
	.flush_done = emb_flush_done,
	.flush_abort = emb_flush_abort,
	/* A flush has no owner here: nobody could end it for a dead one. */
	.flush_force_abort = emb_flush_abort,
	.reset = emb_reset,
	.trigger = emb_trigger,
	.status = emb_status,
	.wait = emb_wait,
	.peek = emb_peek,
	.map = emb_map,
	.owner_pid = emb_owner_pid,
	.map_sched = emb_map_sched,
};
