// SPDX-License-Identifier: GPL-2.0
/*
 * sched_probe.c - recording the context switches and wakeups of traced
 * threads: probes on the sched_switch and sched_waking tracepoints.
 *
 * A thread is traced when its mm maps the recording region writable
 * (region->mms): threads share the mm and fork() copies the mapping, so
 * later threads and children are covered without a hook of their own.
 * sched_waking runs on the waker (sched_wakeup may not), which is what
 * names it.  Both tracepoints are found by name, since their
 * __tracepoint_* symbols are not exported.
 *
 * Cost: nothing while no region records (the probes are registered at
 * the first INIT that wants them); otherwise one pointer test, and for a
 * task with an mm a lookup in a 256-bucket hash, for each side of a
 * switch.  Probes never sleep, take no lock and read no user memory, so
 * they hold on PREEMPT_RT and whatever a process writes into the region.
 * The other side of a switch and a waker are named only as the session's
 * owner could see them (fdr_sched_may_name()): a uid compare per record.
 */
#include <linux/cred.h>
#include <linux/hardirq.h>
#include <linux/hashtable.h>
#include <linux/irqflags.h>
#include <linux/mutex.h>
#include <linux/pid_namespace.h>
#include <linux/rcupdate.h>
#include <linux/sched.h>
#include <linux/smp.h>
#include <linux/spinlock.h>
#include <linux/string.h>
#include <linux/timex.h>
#include <linux/tracepoint.h>
#include "fdr_dev.h"
#include "region.h"
#include "sched.h"

static struct tracepoint *fdr_tp_switch, *fdr_tp_waking;
static DEFINE_MUTEX(fdr_probes_lock);	/* guards fdr_probes_on */
static bool fdr_probes_on;

/*
 * The regions whose traced threads are recorded now, one per session
 * that is INITIALIZED with a scheduling area; NULL slots are free.  A
 * slot is reserved by INIT before the area is allocated (taken, with the
 * uid it counts against), published once INITIALIZED, and given back by
 * the FINALIZE (or a failed INIT): the slots are few, so one uid holds at
 * most its share of them (max_user_sched) and an INIT that finds none
 * left records without the view instead of failing.
 */
#define FDR_SCHED_LIVE_MAX	FDR_SCHED_SLOTS
static struct fdr_region __rcu *fdr_sched_live[FDR_SCHED_LIVE_MAX];
static unsigned int fdr_sched_nr_live;	/* non-NULL slots: the fast skip */
static DEFINE_SPINLOCK(fdr_sched_live_lock);	/* the slots' writers */
static bool fdr_sched_taken[FDR_SCHED_LIVE_MAX];	/* under the lock */
static kuid_t fdr_sched_uid[FDR_SCHED_LIVE_MAX];	/* of a taken slot */

/* Each live region @r (slot @i); in a probe, under its RCU-sched read. */
#define fdr_for_each_live_region(r, i)					\
	for ((i) = 0; (i) < FDR_SCHED_LIVE_MAX; (i)++)			\
		if (((r) = rcu_dereference_sched(fdr_sched_live[i])))

static bool fdr_sched_traced(struct fdr_region *r, struct task_struct *t)
{
	const struct mm_struct *mm = READ_ONCE(t->mm);
	struct fdr_mm_map *m;

	if (!mm)
		return false;
	hash_for_each_possible_rcu(r->mms, m, node, (unsigned long)mm)
		if (m->mm == mm)
			return READ_ONCE(m->writable) ||
			       (READ_ONCE(m->writer_writable) &&
				!READ_ONCE(r->dev->writers_revoked));
	return false;
}

/* Ids in the region's namespace, minus the global ones if it cannot see @t. */
static void fdr_sched_ids(const struct fdr_region *r, struct task_struct *t,
			  s32 *pid, s32 *tid)
{
	if (r->pid_ns == &init_pid_ns) {
		*pid = t->tgid;
		*tid = t->pid;
		return;
	}
	*tid = task_pid_nr_ns(t, r->pid_ns);
	*pid = task_tgid_nr_ns(t, r->pid_ns);
	if (!*tid) {
		*tid = -t->pid;
		*pid = -t->tgid;
	}
}

/*
 * May a record of @r name @t, which is not the traced thread (the other
 * side of a switch, a waker)?  Only as the session's owner could see it
 * (fdr_region_viewer()): the idle task always (it names no one); a task
 * of the owner's uid, real, effective and saved alike (ptrace's rule, so
 * a setuid program running for the owner stays hidden); any task when
 * the owner had CAP_PERFMON at INIT.  The pid namespace's part is the
 * caller's: an id of 0 there hides the task whatever this says.
 *
 * The cred is read under RCU: @t may be changing its creds on another
 * CPU (commit_creds() frees the old ones after a grace period).  The
 * probe's preempt-off section would hold that grace period off already
 * (one RCU since 4.20), but __task_cred() is rcu_dereference() and says
 * so to lockdep; rcu_read_lock() never sleeps, on PREEMPT_RT either.
 */
static bool fdr_sched_may_name(const struct fdr_region *r,
			       struct task_struct *t)
{
	const struct cred *cred;
	bool same;

	if (r->viewer_sees_all || is_idle_task(t))
		return true;
	rcu_read_lock();
	cred = __task_cred(t);
	same = uid_eq(cred->uid, r->viewer_uid) &&
	       uid_eq(cred->euid, r->viewer_uid) &&
	       uid_eq(cred->suid, r->viewer_uid);
	rcu_read_unlock();
	return same;
}

/*
 * The other task's ids in @rec, or FDR_SCHED_OTHER_HIDDEN and 0/0: a
 * task the owner may not name, or one the region's pid namespace cannot
 * see (never minus its global id, as a traced thread's is).
 */
static void fdr_sched_other_ids(const struct fdr_region *r,
				struct task_struct *t,
				struct fdr_sched_record *rec)
{
	if (fdr_sched_may_name(r, t)) {
		if (r->pid_ns == &init_pid_ns) {
			rec->other_pid = t->tgid;
			rec->other_tid = t->pid;
			return;
		}
		rec->other_tid = task_pid_nr_ns(t, r->pid_ns);
		rec->other_pid = task_tgid_nr_ns(t, r->pid_ns);
		/* Exiting: tgid may be unhashed first; or not seen at all. */
		if ((rec->other_tid && rec->other_pid) || is_idle_task(t))
			return;
	}
	rec->other_pid = 0;
	rec->other_tid = 0;
	rec->flags |= FDR_SCHED_OTHER_HIDDEN;
}

/*
 * Append @rec to this CPU's ring.  Interrupts off: a wakeup from an
 * interrupt must not land in the middle of a record being written.
 */
static void fdr_sched_emit(struct fdr_sched *s, struct fdr_sched_record *rec)
{
	struct fdr_sched_record *slot;
	struct fdr_sched_ring *ring;
	unsigned long flags;
	unsigned int cpu;
	u64 head;

	local_irq_save(flags);
	cpu = smp_processor_id();
	if (likely(cpu < s->nr_cpus)) {
		ring = &s->rings[cpu];
		head = ring->head;
		slot = s->records + (size_t)cpu * s->ring_records +
		       (head & (s->ring_records - 1));
		rec->tsc = get_cycles();
		rec->cpu = cpu;
		*slot = *rec;
		/* Pairs with the reader's load-acquire of head. */
		smp_store_release(&ring->head, head + 1);
	}
	local_irq_restore(flags);
}

static void fdr_sched_put(struct fdr_region *r, u8 type, u8 state,
			  struct task_struct *t, struct task_struct *other)
{
	struct fdr_sched_record rec = { .type = type, .state = state };

	fdr_sched_ids(r, t, &rec.pid, &rec.tid);
	if (other)
		fdr_sched_other_ids(r, other, &rec);
	fdr_sched_emit(r->sched, &rec);
}

/* What a thread leaving the CPU waits for. */
static u8 fdr_sched_out_state(bool preempt, unsigned int state)
{
	if (preempt || !state)
		return FDR_SCHED_RUNNABLE;
	if (state & TASK_INTERRUPTIBLE)
		return FDR_SCHED_SLEEPING;
	/* PREEMPT_RT's sleeping spinlocks wait in TASK_RTLOCK_WAIT. */
	if (state & (TASK_UNINTERRUPTIBLE | TASK_RTLOCK_WAIT))
		return FDR_SCHED_DISK;
	return FDR_SCHED_OTHER;
}

static void fdr_probe_switch_one(struct fdr_region *r, bool preempt,
				 struct task_struct *prev,
				 struct task_struct *next,
				 unsigned int prev_state)
{
	if (fdr_sched_traced(r, prev))
		fdr_sched_put(r, FDR_SCHED_SWITCH_OUT,
			      fdr_sched_out_state(preempt, prev_state), prev,
			      next);
	if (fdr_sched_traced(r, next))
		fdr_sched_put(r, FDR_SCHED_SWITCH_IN, 0, next, prev);
}

static void fdr_probe_switch(void *data, bool preempt,
			     struct task_struct *prev,
			     struct task_struct *next, unsigned int prev_state)
{
	struct fdr_region *r;
	unsigned int i;

	if (!READ_ONCE(fdr_sched_nr_live))
		return;
	fdr_for_each_live_region(r, i)
		fdr_probe_switch_one(r, preempt, prev, next, prev_state);
}

static void fdr_probe_waking_one(struct fdr_region *r, struct task_struct *p)
{
	if (!fdr_sched_traced(r, p))
		return;
	if (in_hardirq())
		fdr_sched_put(r, FDR_SCHED_WAKEUP, FDR_SCHED_BY_HARDIRQ, p, NULL);
	else if (in_serving_softirq())
		fdr_sched_put(r, FDR_SCHED_WAKEUP, FDR_SCHED_BY_SOFTIRQ, p, NULL);
	else
		fdr_sched_put(r, FDR_SCHED_WAKEUP, FDR_SCHED_BY_TASK, p,
			      current);
}

static void fdr_probe_waking(void *data, struct task_struct *p)
{
	struct fdr_region *r;
	unsigned int i;

	if (!READ_ONCE(fdr_sched_nr_live))
		return;
	fdr_for_each_live_region(r, i)
		fdr_probe_waking_one(r, p);
}

static void fdr_find_tracepoint(struct tracepoint *tp, void *priv)
{
	if (!strcmp(tp->name, "sched_switch"))
		fdr_tp_switch = tp;
	else if (!strcmp(tp->name, "sched_waking"))
		fdr_tp_waking = tp;
}

/**
 * fdr_sched_module_init - find the scheduler's tracepoints
 *
 * Return: 0; without them regions simply get no scheduling area.
 */
int fdr_sched_module_init(void)
{
	for_each_kernel_tracepoint(fdr_find_tracepoint, NULL);
	if (!fdr_tp_switch || !fdr_tp_waking)
		pr_warn("fdr: no sched_switch/sched_waking tracepoints: no scheduling records\n");
	return 0;
}

/* Does INIT with @cfg get a scheduling area? */
bool fdr_sched_wanted(const struct fdr_init *cfg)
{
	return fdr_tp_switch && fdr_tp_waking &&
	       !(cfg->flags & FDR_INIT_NO_SCHED);
}

/**
 * fdr_sched_prepare - register the probes, once
 *
 * Called by INIT before it takes dev->lock: registering takes the CPU
 * hotplug and jump label locks, which must not nest inside it.
 *
 * Return: 0 or a negative errno from tracepoint_probe_register().
 */
int fdr_sched_prepare(void)
{
	int err = 0;

	mutex_lock(&fdr_probes_lock);
	if (!fdr_probes_on) {
		err = tracepoint_probe_register(fdr_tp_switch,
						fdr_probe_switch, NULL);
		if (!err) {
			err = tracepoint_probe_register(fdr_tp_waking,
							fdr_probe_waking, NULL);
			if (err)
				tracepoint_probe_unregister(fdr_tp_switch,
							    fdr_probe_switch,
							    NULL);
		}
		fdr_probes_on = !err;
	}
	mutex_unlock(&fdr_probes_lock);
	return err;
}

/* Unregistered only here: no probe can run once the module is gone. */
void fdr_sched_module_exit(void)
{
	if (!fdr_probes_on)
		return;
	tracepoint_probe_unregister(fdr_tp_waking, fdr_probe_waking, NULL);
	tracepoint_probe_unregister(fdr_tp_switch, fdr_probe_switch, NULL);
	tracepoint_synchronize_unregister();
	fdr_probes_on = false;
}

/**
 * fdr_sched_reserve - a slot for a region INIT is about to make
 * @uid: whom the slot counts against (the session's owner; for the
 *       default session the INIT caller)
 * @share: how many slots @uid may hold at once, 0 for no limit
 *
 * Called with no lock but this one (dev->lock may be held).
 *
 * Return: the slot, or -ENOSPC when all are taken or @uid holds @share.
 */
int fdr_sched_reserve(kuid_t uid, u32 share)
{
	unsigned int i, held = 0;
	int slot = -ENOSPC;

	spin_lock(&fdr_sched_live_lock);
	for (i = 0; i < FDR_SCHED_LIVE_MAX; i++) {
		if (!fdr_sched_taken[i]) {
			if (slot < 0)
				slot = i;
		} else if (uid_eq(fdr_sched_uid[i], uid)) {
			held++;
		}
	}
	if (share && held >= share)
		slot = -ENOSPC;
	if (slot >= 0) {
		fdr_sched_taken[slot] = true;
		fdr_sched_uid[slot] = uid;
	}
	spin_unlock(&fdr_sched_live_lock);
	return slot;
}

/**
 * fdr_sched_unreserve - free a slot no region took
 * @slot: what fdr_sched_reserve() gave (a negative one is ignored)
 */
void fdr_sched_unreserve(int slot)
{
	if (slot < 0)
		return;
	spin_lock(&fdr_sched_live_lock);
	fdr_sched_taken[slot] = false;
	spin_unlock(&fdr_sched_live_lock);
}

/**
 * fdr_sched_start - INITIALIZED: record @r's threads
 * @r: the region, with the slot its INIT reserved (none: nothing to do)
 *
 * Beside those of the other sessions' live regions.
 */
void fdr_sched_start(struct fdr_region *r)
{
	if (!r->sched || r->sched_slot < 0)
		return;
	spin_lock(&fdr_sched_live_lock);
	rcu_assign_pointer(fdr_sched_live[r->sched_slot], r);
	WRITE_ONCE(fdr_sched_nr_live, fdr_sched_nr_live + 1);
	spin_unlock(&fdr_sched_live_lock);
}

/**
 * fdr_sched_stop - FINALIZE (or the end of a session): stop recording @r
 * @r: the region
 *
 * Gives its slot back; a second call finds none.  A probe may still be
 * writing; readers allow for it, and RESET waits for it
 * (fdr_sched_quiesce()) before the region can go.
 */
void fdr_sched_stop(struct fdr_region *r)
{
	int slot;

	spin_lock(&fdr_sched_live_lock);
	slot = r->sched_slot;
	if (slot >= 0) {
		if (rcu_access_pointer(fdr_sched_live[slot]) == r) {
			RCU_INIT_POINTER(fdr_sched_live[slot], NULL);
			WRITE_ONCE(fdr_sched_nr_live, fdr_sched_nr_live - 1);
		}
		fdr_sched_taken[slot] = false;
		r->sched_slot = -1;
	}
	spin_unlock(&fdr_sched_live_lock);
}

/*
 * Before the device drops @r (RESET): no probe that saw it live is left
 * running.  Sleeps; called without dev->lock.
 */
void fdr_sched_quiesce(struct fdr_region *r)
{
	if (r->sched)
		synchronize_rcu();
}
