// SPDX-License-Identifier: GPL-2.0
/*
 * state.c - the XRay log-mode state machine of /dev/fdr.
 *
 * struct fdr_dev holds the authoritative state; every change is copied
 * into the current region's control area (writers poll that word) and
 * wakes poll() waiters.  Every transition runs under dev->lock and never
 * touches user memory there, so the lock nests inside mmap_lock (vma
 * close and mmap take it) without an inversion.
 */
#include <linux/capability.h>
#include <linux/cred.h>
#include <linux/ktime.h>
#include <linux/lockdep.h>
#include <linux/poll.h>
#include <linux/sched.h>
#include <linux/fdr_flush.h>
#include "fdr_dev.h"
#include "region.h"
#include "sched.h"
#include "tsc.h"

void fdr_dev_setup(struct fdr_dev *dev)
{
	mutex_init(&dev->lock);
	mutex_init(&dev->revoke_lock);
	INIT_LIST_HEAD(&dev->writers);
	init_waitqueue_head(&dev->waitq);
	atomic64_set(&dev->live_bytes, 0);
}

/*
 * The session's end (or the module's, for the default one): no file and
 * no mapping is left, so the region goes with this put and every byte
 * INIT accounted must be back.
 */
void fdr_dev_teardown(struct fdr_dev *dev)
{
	if (dev->region) {
		fdr_sched_stop(dev->region);
		fdr_region_put(dev->region);
	}
	dev->region = NULL;
	WARN(atomic64_read(&dev->live_bytes),
	     "fdr: %lld bytes of regions still accounted at the end of a session\n",
	     (long long)atomic64_read(&dev->live_bytes));
	put_pid(dev->finalize_pid);
	dev->finalize_pid = NULL;
	put_pid(dev->finalize_tid);
	dev->finalize_tid = NULL;
	mutex_destroy(&dev->revoke_lock);
	mutex_destroy(&dev->lock);
}

/* @pid as the region creator's namespace sees it (0: none, or unseen). */
static pid_t fdr_pid_in(struct pid *pid, const struct fdr_region *r)
{
	return pid ? pid_nr_ns(pid, r->pid_ns) : 0;
}

/*
 * The trigger line and counters of @r's control area, rewritten whole
 * from the kernel's copies: writers may scribble over them, and a
 * scribble then lasts only until the next change.
 */
static void fdr_publish_trigger(struct fdr_dev *dev, struct fdr_region *r)
{
	struct fdr_control *c = r->ctl;

	WRITE_ONCE(c->trigger_ns, r->trigger_ns);
	WRITE_ONCE(c->trigger_fid, r->trigger_fid);
	WRITE_ONCE(c->trigger_holdoff_ms, r->trigger_holdoff_ms);
	WRITE_ONCE(c->trigger_not_before_tsc, r->trigger_not_before_tsc);
	WRITE_ONCE(c->trigger_last_ns, dev->trigger_last_ns);
	WRITE_ONCE(c->triggers_fired, r->triggers_fired);
	WRITE_ONCE(c->triggers_refused, r->triggers_refused);
}

/* The state line of @r's control area, state word last. */
static void fdr_publish(struct fdr_dev *dev, struct fdr_region *r)
{
	struct fdr_control *c = r->ctl;

	fdr_publish_trigger(dev, r);
	WRITE_ONCE(c->finalize_reason, dev->finalize_reason);
	WRITE_ONCE(c->finalize_signal, dev->finalize_signal);
	WRITE_ONCE(c->finalize_pid, fdr_pid_in(dev->finalize_pid, r));
	WRITE_ONCE(c->finalize_tid, fdr_pid_in(dev->finalize_tid, r));
	WRITE_ONCE(c->finalize_fid, dev->finalize_fid);
	WRITE_ONCE(c->finalize_duration_ns, dev->finalize_duration_ns);
	WRITE_ONCE(c->finalize_time_ns, dev->finalize_time_ns);
	WRITE_ONCE(c->flush_state, dev->flush_state);
	/* Pairs with the writers' load-acquire of the state word. */
	smp_store_release(&c->state, dev->state);
}

static void fdr_changed(struct fdr_dev *dev)
{
	if (dev->region)
		fdr_publish(dev, dev->region);
	WRITE_ONCE(dev->events, dev->events + 1);
	wake_up_interruptible_all(&dev->waitq);
}

static void fdr_set_state(struct fdr_dev *dev, u32 state)
{
	WRITE_ONCE(dev->state, state);
	fdr_changed(dev);
}

static void fdr_set_flush_state(struct fdr_dev *dev, u32 flush_state)
{
	WRITE_ONCE(dev->flush_state, flush_state);
	fdr_changed(dev);
}

static void fdr_clear_finalize(struct fdr_dev *dev)
{
	dev->finalize_reason = FDR_FINALIZE_NONE;
	dev->finalize_signal = 0;
	put_pid(dev->finalize_pid);
	dev->finalize_pid = NULL;
	put_pid(dev->finalize_tid);
	dev->finalize_tid = NULL;
	dev->finalize_fid = 0;
	dev->finalize_duration_ns = 0;
	dev->finalize_time_ns = 0;
}

static u32 fdr_init_ctl_flags(const struct fdr_init *cfg,
			      const struct fdr_init_params *p)
{
	u32 flags = 0;

	if (p->crash_finalize &&
	    !(cfg->flags & FDR_INIT_NO_CRASH_FINALIZE))
		flags |= FDR_CTL_CRASH_FINALIZE;
	if (cfg->flags & FDR_INIT_STREAM)
		flags |= FDR_CTL_STREAM;
	return flags;
}

/*
 * Before VER1 the fields are zero (no trigger).  A function id without a
 * duration would be a trigger that never fires: refused, not ignored.
 */
static bool fdr_init_trigger_valid(const struct fdr_init *cfg)
{
	if (cfg->trigger_fid < 0)
		return false;
	if (cfg->trigger_fid && !cfg->trigger_ns)
		return false;
	return cfg->trigger_holdoff_ms <= FDR_TRIGGER_HOLDOFF_MAX_MS;
}

/*
 * Where the device's holdoff ends for @r's writers, in TSC ticks: the
 * holdoff of a region runs from the device's last trigger, even one that
 * fired in an earlier region.
 */
static u64 fdr_trigger_not_before(const struct fdr_dev *dev,
				  const struct fdr_region *r)
{
	if (!dev->trigger_fired)
		return 0;
	return fdr_tsc_after_ms(dev->trigger_last_tsc, r->trigger_holdoff_ms);
}

/*
 * A scheduling slot for @l's area, counted against the session's owner
 * (the INIT caller for the default session), within that uid's share
 * unless the caller has CAP_SYS_ADMIN.  None left: the region is made
 * without the area (and without its memory), and says so in its flags.
 */
static void fdr_init_sched_slot(struct fdr_dev *dev,
				const struct fdr_init_params *p,
				struct fdr_layout *l, u32 *ctl_flags)
{
	kuid_t uid = dev->is_session ? dev->owner : current_euid();
	u32 share = capable(CAP_SYS_ADMIN) ? 0 : p->max_user_sched;

	if (!l->sched.size)
		return;
	l->sched_slot = fdr_sched_reserve(uid, share);
	if (l->sched_slot >= 0)
		return;
	fdr_layout_drop_sched(l);
	*ctl_flags |= FDR_CTL_SCHED_REFUSED;
}

/*
 * UNINITIALIZED -> INITIALIZING, with @l's memory counted against the
 * memory caps.  Old regions still mapped count too, or INIT/mmap/RESET
 * in a loop would pin any amount of memory.
 */
static int fdr_init_begin(struct fdr_dev *dev, const struct fdr_init_params *p,
			  struct fdr_layout *l, u32 *ctl_flags,
			  u32 *generation)
{
	int err = -EBUSY;

	mutex_lock(&dev->lock);
	if (dev->state == FDR_STATE_UNINITIALIZED) {
		fdr_init_sched_slot(dev, p, l, ctl_flags);
		err = fdr_account_reserve(dev, l->bytes, p);
		if (err) {
			fdr_sched_unreserve(l->sched_slot);
			l->sched_slot = -1;
		}
	}
	if (!err) {
		*generation = dev->generation + 1 ?: 1;
		fdr_set_state(dev, FDR_STATE_INITIALIZING);
	}
	mutex_unlock(&dev->lock);
	return err;
}

/*
 * UNINITIALIZED -> INITIALIZING -> INITIALIZED.  The allocation runs
 * without the lock: INITIALIZING is a state no other transition starts
 * from, so nobody can change the state meanwhile, and STATUS/poll stay
 * responsive during a large INIT.  The module parameters are read once,
 * here: what is checked, accounted and allocated is one layout.
 */
int fdr_state_init(struct fdr_dev *dev, const struct fdr_init *cfg)
{
	struct fdr_init_params p;
	struct fdr_layout l;
	struct fdr_region *r;
	u32 generation, ctl_flags;
	int err;

	if ((cfg->flags & ~FDR_INIT_FLAGS_ALL) || cfg->reserved ||
	    !fdr_init_trigger_valid(cfg))
		return -EINVAL;
	fdr_init_params_read(&p);
	ctl_flags = fdr_init_ctl_flags(cfg, &p);
	err = fdr_region_layout(cfg, &p, fdr_sched_wanted(cfg), &l);
	if (!err && l.sched.size)
		err = fdr_sched_prepare();
	if (err)
		return err;

	err = fdr_init_begin(dev, &p, &l, &ctl_flags, &generation);
	if (err)
		return err;

	r = fdr_region_create(dev, cfg, &l, ctl_flags, generation);
	if (IS_ERR(r)) {
		fdr_sched_unreserve(l.sched_slot);
		fdr_account_release(dev, l.bytes);
	} else {
		r->accounted = l.bytes;
	}

	mutex_lock(&dev->lock);
	if (IS_ERR(r)) {
		fdr_set_state(dev, FDR_STATE_UNINITIALIZED);
		mutex_unlock(&dev->lock);
		return PTR_ERR(r);
	}
	fdr_sched_start(r);
	dev->generation = generation;
	r->trigger_not_before_tsc = fdr_trigger_not_before(dev, r);
	dev->region = r;
	WRITE_ONCE(dev->stream, !!(r->flags & FDR_CTL_STREAM));
	dev->flush_state = FDR_FLUSH_NOT_FLUSHING;
	fdr_clear_finalize(dev);
	fdr_set_state(dev, FDR_STATE_INITIALIZED);
	mutex_unlock(&dev->lock);
	return 0;
}

/*
 * INITIALIZED -> FINALIZING -> FINALIZED, naming the cause and @who
 * caused it (a tgid); @trig is the FDR_IOC_TRIGGER that fired (NULL for
 * any other reason), @now the time.
 */
static void fdr_finalize_locked(struct fdr_dev *dev, u32 reason, int sig,
				struct pid *who, const struct fdr_trigger *trig,
				u64 now)
{
	lockdep_assert_held(&dev->lock);
	fdr_sched_stop(dev->region);
	fdr_set_state(dev, FDR_STATE_FINALIZING);
	dev->finalize_reason = reason;
	dev->finalize_signal = sig;
	dev->finalize_pid = get_pid(who);
	if (trig) {
		dev->finalize_tid = get_pid(task_pid(current));
		dev->finalize_fid = trig->fid;
		dev->finalize_duration_ns = trig->duration_ns;
	}
	dev->finalize_time_ns = now;
	fdr_set_state(dev, FDR_STATE_FINALIZED);
}

int fdr_state_finalize(struct fdr_dev *dev)
{
	int err = -EBUSY;

	mutex_lock(&dev->lock);
	if (dev->state == FDR_STATE_INITIALIZED) {
		fdr_finalize_locked(dev, FDR_FINALIZE_IOCTL, 0,
				    task_tgid(current), NULL, ktime_get_ns());
		err = 0;
	}
	mutex_unlock(&dev->lock);
	return err;
}

/* Is @now inside the holdoff of the device's last trigger, for @r? */
static bool fdr_trigger_held_off(const struct fdr_dev *dev,
				 const struct fdr_region *r, u64 now)
{
	u64 holdoff = (u64)r->trigger_holdoff_ms * NSEC_PER_MSEC;

	return dev->trigger_fired && holdoff &&
	       now - dev->trigger_last_ns < holdoff;
}

/* The trigger fires: the holdoff starts now, for this and later regions. */
static void fdr_trigger_fire_locked(struct fdr_dev *dev,
				    const struct fdr_trigger *trig, u64 now)
{
	struct fdr_region *r = dev->region;

	dev->trigger_fired = true;
	dev->trigger_last_ns = now;
	dev->trigger_last_tsc = fdr_tsc_now();
	r->trigger_not_before_tsc = fdr_trigger_not_before(dev, r);
	r->triggers_fired++;
	/* The finalize publishes the trigger line with the state. */
	fdr_finalize_locked(dev, FDR_FINALIZE_TRIGGER, 0, task_tgid(current),
			    trig, now);
}

/**
 * fdr_state_trigger - INITIALIZED -> FINALIZED because of a slow call
 * @dev: the device
 * @trig: the caller's request, flags and reserved already checked
 *
 * Outside FDR_TRIGGER_BY_HAND, a trigger less than the region's
 * trigger_holdoff_ms after the device's last one is refused and only
 * counted.  The fid and duration are the caller's claim, recorded as is.
 *
 * Return: 0, -EAGAIN inside the holdoff, -EBUSY if not INITIALIZED.
 */
int fdr_state_trigger(struct fdr_dev *dev, const struct fdr_trigger *trig)
{
	int err = -EBUSY;
	u64 now;

	mutex_lock(&dev->lock);
	/*
	 * The clock is read under the lock: a time read before waiting for
	 * it could be older than the trigger that fired meanwhile, and the
	 * holdoff arithmetic would wrap.
	 */
	now = ktime_get_ns();
	if (dev->state != FDR_STATE_INITIALIZED)
		goto out;
	if (!(trig->flags & FDR_TRIGGER_BY_HAND) &&
	    fdr_trigger_held_off(dev, dev->region, now)) {
		dev->region->triggers_refused++;
		fdr_publish_trigger(dev, dev->region);
		err = -EAGAIN;
		goto out;
	}
	fdr_trigger_fire_locked(dev, trig, now);
	err = 0;
out:
	mutex_unlock(&dev->lock);
	return err;
}

/*
 * Process @who, a writer of @region, died from @sig: finalize, if
 * @region is still the device's and was initialized to allow it.  @who
 * is not always current: the last reference to a writer's address space
 * may be dropped by another task (reclaim.c).
 */
void fdr_state_crash_finalize_locked(struct fdr_dev *dev,
				     struct fdr_region *region, int sig,
				     struct pid *who)
{
	lockdep_assert_held(&dev->lock);
	if (dev->region != region || dev->state != FDR_STATE_INITIALIZED ||
	    !(region->flags & FDR_CTL_CRASH_FINALIZE))
		return;
	fdr_finalize_locked(dev, FDR_FINALIZE_CRASH, sig, who, NULL,
			    ktime_get_ns());
}

/*
 * A flush belongs to the open file that began it (dev->flush_owner, set
 * exactly while FLUSHING): only that file ends it, and its release
 * aborts it, so a flusher that dies mid-flush leaves the data FINALIZED
 * for the next one instead of FLUSHING forever.  In a stream region
 * (FDR_CTL_STREAM) the flush may begin while INITIALIZED and then spans
 * the finalize: the finalize leaves flush_state and the owner alone.
 */
static void fdr_flush_end_locked(struct fdr_dev *dev, u32 to)
{
	lockdep_assert_held(&dev->lock);
	dev->flush_owner = NULL;
	fdr_set_flush_state(dev, to);
}

/* Is the current region in streaming mode?  Fixed from INIT to RESET. */
static bool fdr_stream_locked(const struct fdr_dev *dev)
{
	lockdep_assert_held(&dev->lock);
	return dev->region && (dev->region->flags & FDR_CTL_STREAM);
}

/*
 * May @op run now?  The rules are uapi/linux/fdr_flush.h's table, shared
 * with libfdr's embedded backend; the device's states are always in range.
 */
static bool fdr_flush_may_locked(struct fdr_dev *dev, enum fdr_flush_op op)
{
	const struct fdr_flush_rule *rule = &fdr_flush_rules[op];

	lockdep_assert_held(&dev->lock);
	return rule->from[fdr_stream_locked(dev)][dev->state] &
	       FDR_FLUSH_FROM(dev->flush_state);
}

/**
 * fdr_state_flush_begin - FINALIZED, NOT_FLUSHING or FLUSHED -> FLUSHING
 * @dev: the device
 * @ff: the file asking; it owns the flush until DONE, ABORT or release
 *
 * In a stream region also INITIALIZED, NOT_FLUSHING -> FLUSHING: the
 * stream flush, which keeps FLUSHING and its owner through the finalize.
 *
 * Return: 0, or -EBUSY in any other state.
 */
int fdr_state_flush_begin(struct fdr_dev *dev, struct fdr_file *ff)
{
	int err = -EBUSY;

	mutex_lock(&dev->lock);
	if (fdr_flush_may_locked(dev, FDR_FLUSH_OP_BEGIN)) {
		dev->flush_owner = ff;
		fdr_set_flush_state(dev, fdr_flush_rules[FDR_FLUSH_OP_BEGIN].to);
		err = 0;
	}
	mutex_unlock(&dev->lock);
	return err;
}

/* FLUSHING -> DONE's or ABORT's flush state, if @ff began the flush. */
static int fdr_flush_end(struct fdr_dev *dev, struct fdr_file *ff,
			 enum fdr_flush_op op)
{
	int err = -EBUSY;

	mutex_lock(&dev->lock);
	if (fdr_flush_may_locked(dev, op) && dev->flush_owner == ff) {
		fdr_flush_end_locked(dev, fdr_flush_rules[op].to);
		err = 0;
	}
	mutex_unlock(&dev->lock);
	return err;
}

/**
 * fdr_state_flush_done - FLUSHING -> FLUSHED, once FINALIZED
 * @dev: the device
 * @ff: the file asking
 *
 * Return: 0, or -EBUSY if not FINALIZED and FLUSHING (a stream flush
 * still INITIALIZED included) or @ff did not begin the flush.
 */
int fdr_state_flush_done(struct fdr_dev *dev, struct fdr_file *ff)
{
	return fdr_flush_end(dev, ff, FDR_FLUSH_OP_DONE);
}

/**
 * fdr_state_flush_abort - FLUSHING -> NOT_FLUSHING (the data stays)
 * @dev: the device
 * @ff: the file asking
 *
 * A stream flush aborted while INITIALIZED may be begun again by anyone.
 *
 * Return: 0, or -EBUSY if not FLUSHING or @ff did not begin the flush.
 */
int fdr_state_flush_abort(struct fdr_dev *dev, struct fdr_file *ff)
{
	return fdr_flush_end(dev, ff, FDR_FLUSH_OP_ABORT);
}

/**
 * fdr_state_flush_force_abort - FLUSHING -> NOT_FLUSHING, whoever began it
 * @dev: the device
 *
 * For an administrator (the caller checked CAP_SYS_ADMIN) whose flusher
 * hangs while its file stays open; a stream flush too, before the
 * finalize.
 *
 * Return: 0, or -EBUSY if not FLUSHING.
 */
int fdr_state_flush_force_abort(struct fdr_dev *dev)
{
	int err = -EBUSY;

	mutex_lock(&dev->lock);
	if (fdr_flush_may_locked(dev, FDR_FLUSH_OP_ABORT)) {
		fdr_flush_end_locked(dev, fdr_flush_rules[FDR_FLUSH_OP_ABORT].to);
		err = 0;
	}
	mutex_unlock(&dev->lock);
	return err;
}

/**
 * fdr_state_release - the last reference to @ff is going
 * @dev: the device
 * @ff: the file being released
 *
 * A flush @ff began and did not end is aborted, a stream flush before
 * the finalize too: pollers see EPOLLIN again and the next flusher
 * writes the same data.
 */
void fdr_state_release(struct fdr_dev *dev, struct fdr_file *ff)
{
	mutex_lock(&dev->lock);
	if (dev->flush_owner == ff)
		fdr_flush_end_locked(dev, FDR_FLUSH_NOT_FLUSHING);
	mutex_unlock(&dev->lock);
}

/*
 * FINALIZED (not FLUSHING) -> UNINITIALIZED.  The old control area gets
 * state UNINITIALIZED so writers that still map it stop; its pages live
 * on until the last mapping goes.
 */
int fdr_state_reset(struct fdr_dev *dev)
{
	struct fdr_region *old;

	mutex_lock(&dev->lock);
	if (dev->state != FDR_STATE_FINALIZED ||
	    dev->flush_state == FDR_FLUSH_FLUSHING) {
		mutex_unlock(&dev->lock);
		return -EBUSY;
	}
	old = dev->region;
	dev->region = NULL;
	WRITE_ONCE(dev->stream, false);
	/* Pairs with the writers' load-acquire of the state word. */
	smp_store_release(&old->ctl->state, FDR_STATE_UNINITIALIZED);
	dev->flush_state = FDR_FLUSH_NOT_FLUSHING;
	fdr_clear_finalize(dev);
	fdr_set_state(dev, FDR_STATE_UNINITIALIZED);
	mutex_unlock(&dev->lock);
	fdr_sched_quiesce(old);
	fdr_region_put(old);
	return 0;
}

/* Descriptors in state HELD; the count is bounded by the kernel's geometry. */
static u32 fdr_count_held(const struct fdr_region *r)
{
	u32 i, n = 0;

	for (i = 0; i < r->nr_buffers; i++)
		if (READ_ONCE(fdr_region_desc(r, i)->state) == FDR_BUF_HELD)
			n++;
	return n;
}

/*
 * The control area's counter (writers older than the per-CPU counters)
 * plus every CPU ring's.  Shared memory: only reported, so a sum that
 * wraps on scribbled values does no harm.
 */
static u64 fdr_records_dropped(const struct fdr_region *r)
{
	u64 sum = READ_ONCE(r->ctl->records_dropped);
	u32 cpu;

	for (cpu = 0; cpu < r->nr_cpus; cpu++)
		sum += READ_ONCE(fdr_region_ring(r, cpu)->records_dropped);
	return sum;
}

/*
 * Writer-maintained counters come from shared memory: they are reported,
 * never used, and recycled is clamped to acquired (a buffer can only be
 * recycled by acquiring it).
 */
static void fdr_status_counters(const struct fdr_region *r,
				struct fdr_status *st)
{
	const struct fdr_control *c = r->ctl;

	st->buffers_acquired = READ_ONCE(c->buffers_acquired);
	st->buffers_recycled = min(READ_ONCE(c->buffers_recycled),
				   st->buffers_acquired);
	st->records_dropped = fdr_records_dropped(r);
	st->buffers_reclaimed = r->reclaimed;
	st->buffers_in_use = fdr_count_held(r);
}

static void fdr_status_region(const struct fdr_region *r,
			      struct fdr_status *st)
{
	st->flags = r->flags;
	st->buffers_per_cpu = r->buffers_per_cpu;
	st->buffer_size = r->buffer_size;
	st->nr_cpus = r->nr_cpus;
	st->nr_buffers = r->nr_buffers;
	st->control_size = r->control_size;
	st->map_size = r->map_size;
	st->rings_offset = r->rings_offset;
	st->descs_offset = r->descs_offset;
	st->buffers_offset = r->control_size;
	fdr_status_counters(r, st);
	fdr_sched_status(r, st);
	/* The kernel's copies: the control area's may be scribbled on. */
	st->trigger_ns = r->trigger_ns;
	st->trigger_fid = r->trigger_fid;
	st->trigger_holdoff_ms = r->trigger_holdoff_ms;
	st->triggers_fired = r->triggers_fired;
	st->triggers_refused = r->triggers_refused;
}

/* Fill @st (already zeroed) and mark @ff's view of the state as current. */
void fdr_state_status(struct fdr_dev *dev, struct fdr_file *ff,
		      struct fdr_status *st)
{
	st->tsc_hz = fdr_tsc_hz();
	st->default_buffer_size = fdr_param_buffer_size();
	st->default_buffers_per_cpu = fdr_param_buffers_per_cpu();
	st->page_size = PAGE_SIZE;

	mutex_lock(&dev->lock);
	st->state = dev->state;
	st->flush_state = dev->flush_state;
	st->generation = dev->generation;
	st->finalize_reason = dev->finalize_reason;
	st->finalize_signal = dev->finalize_signal;
	st->finalize_pid = dev->finalize_pid ? pid_vnr(dev->finalize_pid) : 0;
	st->finalize_tid = dev->finalize_tid ? pid_vnr(dev->finalize_tid) : 0;
	st->finalize_fid = dev->finalize_fid;
	st->finalize_duration_ns = dev->finalize_duration_ns;
	if (dev->region) {
		fdr_status_region(dev->region, st);
		st->owner_pid = fdr_owner_id(dev->region, task_tgid(current));
	}
	WRITE_ONCE(ff->events_seen, dev->events);
	mutex_unlock(&dev->lock);
}

/*
 * Is a flush wanted?  Finalized and nobody is flushing or has flushed;
 * or a stream region, still initialized, that has no stream flusher.
 * Lockless: a stale answer is followed by the wake-up of the change.
 */
static bool fdr_flush_wanted(const struct fdr_dev *dev)
{
	u32 state = READ_ONCE(dev->state);

	if (READ_ONCE(dev->flush_state) != FDR_FLUSH_NOT_FLUSHING)
		return false;
	return state == FDR_STATE_FINALIZED ||
	       (state == FDR_STATE_INITIALIZED && READ_ONCE(dev->stream));
}

/**
 * fdr_state_poll_mask - what poll() reports to @ff
 * @dev: the device
 * @ff: the file polling
 *
 * Return: EPOLLIN | EPOLLRDNORM when a flush is wanted (fdr_flush_wanted),
 * EPOLLPRI when the state changed since @ff's last STATUS.
 */
__poll_t fdr_state_poll_mask(struct fdr_dev *dev, struct fdr_file *ff)
{
	__poll_t mask = 0;

	if (fdr_flush_wanted(dev))
		mask |= EPOLLIN | EPOLLRDNORM;
	if (READ_ONCE(dev->events) != READ_ONCE(ff->events_seen))
		mask |= EPOLLPRI;
	return mask;
}
