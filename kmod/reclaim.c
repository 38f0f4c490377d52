// SPDX-License-Identifier: GPL-2.0
/*
 * reclaim.c - buffers of processes that are gone, and crash finalize.
 *
 * A writer holds a buffer (descriptor state HELD, owner_pid = its number
 * in the region, fdr_owner_id()) and releases it itself.  When the
 * process image goes away (exit, fatal signal, exec) its HELD buffers
 * become RELEASED, extents kept, so the flusher still writes what was
 * committed and the ring can reuse them.  The trigger is the dying task
 * itself, seen either as the last unmap of a region in its address space
 * (exit_mmap; mmap.c counts the VMAs) or as the release of a /dev/fdr
 * file it opened: no exit hooks, nothing runs in the writer's own path.
 * A stream region (FDR_CTL_STREAM) needs nothing else: there RELEASED
 * means "to be written", so the stream flusher writes a dead writer's
 * committed data and then frees the buffer, as for any released one.
 *
 * Everything read from the descriptors is shared memory: a value is only
 * compared, and the state word only ever moves HELD -> RELEASED by cmpxchg.
 */
#include <linux/atomic.h>
#include <linux/mm.h>
#include <linux/pid_namespace.h>
#include <linux/rcupdate.h>
#include <linux/sched.h>
#include <linux/sched/mm.h>
#include <linux/sched/signal.h>
#include "fdr_dev.h"
#include "region.h"

/*
 * Is current the last task of a process image that is going away?  On
 * exit, signal->live reaches 0 before exit_mm() and exit_files() of the
 * last thread; on exec, de_thread() has killed every other thread before
 * the old mm and the close-on-exec files are dropped.
 */
static bool fdr_current_image_gone(void)
{
	if (current->flags & PF_EXITING)
		return atomic_read(&current->signal->live) == 0;
	return current->in_execve;
}

/*
 * The signal the current process dies from, 0 for exit() and exec.  A
 * group exit (exit_group(), a fatal signal to any thread, a core dump)
 * records the process-wide code in signal->group_exit_code.
 */
static int fdr_current_fatal_signal(void)
{
	struct signal_struct *sig = current->signal;
	int code;

	if (!(current->flags & PF_EXITING))
		return 0;
	if (READ_ONCE(sig->flags) & SIGNAL_GROUP_EXIT)
		code = READ_ONCE(sig->group_exit_code);
	else
		code = current->exit_code;
	return code & 0x7f;
}

/**
 * fdr_owner_id - the number a process stores as owner_pid in @region
 * @region: the region
 * @tgid: the process
 *
 * Writers of one region may live in different pid namespaces, where the
 * same number names different processes; the region numbers them all in
 * one: its creator's namespace (as finalize_pid), and a process that
 * namespace cannot see by minus its number in the initial one.  Both are
 * unique among live processes, and they never collide (one is positive,
 * the other negative).  STATUS tells each writer its number.
 *
 * Return: the id, never 0.
 */
s32 fdr_owner_id(const struct fdr_region *region, struct pid *tgid)
{
	pid_t nr = pid_nr_ns(tgid, region->pid_ns);

	return nr ? nr : -pid_nr(tgid);
}

/*
 * Is @d HELD by @owner?  A writer taking a buffer CASes it to HELD, then
 * stores its id, then a new seq; the reads go the opposite way, so an
 * unchanged seq means the id read is still the holder's, except in the
 * instants between a writer's CAS and its seq store (abi.md).
 */
static bool fdr_desc_held_by(struct fdr_buffer_desc *d, s32 owner)
{
	u32 state;
	s32 pid;
	u64 seq;

	/* seq first: pairs with the writer's store of a new seq */
	seq = smp_load_acquire(&d->seq);
	/* then the state the writer CASed */
	state = smp_load_acquire(&d->state);
	/* then the id it stored after the CAS */
	pid = smp_load_acquire(&d->owner_pid);
	if (state != FDR_BUF_HELD || pid != owner)
		return false;
	/* seq again: moved means a new writer took the buffer meanwhile */
	return smp_load_acquire(&d->seq) == seq;
}

/* HELD -> RELEASED for each descriptor @owner holds; how many moved. */
static u32 fdr_reclaim_owner(struct fdr_region *r, s32 owner)
{
	u32 i, n = 0;

	lockdep_assert_held(&r->dev->lock);
	if (!owner)
		return 0;
	for (i = 0; i < r->nr_buffers; i++) {
		struct fdr_buffer_desc *d = fdr_region_desc(r, i);

		if (fdr_desc_held_by(d, owner) &&
		    cmpxchg(&d->state, FDR_BUF_HELD, FDR_BUF_RELEASED) ==
		    FDR_BUF_HELD)
			n++;
	}
	if (n) {
		r->reclaimed += n;
		WRITE_ONCE(r->ctl->buffers_reclaimed, r->reclaimed);
	}
	return n;
}

/*
 * Reclaim what the dying current process held in @r, then finalize if
 * it was a writer (held buffers or mapped @r writable) killed by a
 * signal.  Reclaim first, so pollers woken by the finalize see it.
 */
static void fdr_reclaim_current_locked(struct fdr_region *r, bool was_writer)
{
	int sig = fdr_current_fatal_signal();
	u32 n = fdr_reclaim_owner(r, fdr_owner_id(r, task_tgid(current)));

	if (sig && (n || was_writer))
		fdr_state_crash_finalize_locked(r->dev, r, sig,
						task_tgid(current));
}

/*
 * The signal process @tgid died from, when it is not current: 0 if it
 * lives (an exec dropped the address space) or is reaped already (then
 * nobody can say).
 */
static int fdr_pid_fatal_signal(struct pid *tgid)
{
	struct task_struct *task;
	struct signal_struct *sig;
	int code = 0;

	rcu_read_lock();
	task = pid_task(tgid, PIDTYPE_TGID);
	if (task) {
		sig = task->signal;
		if (!atomic_read(&sig->live))
			code = (READ_ONCE(sig->flags) & SIGNAL_GROUP_EXIT) ?
			       READ_ONCE(sig->group_exit_code) :
			       READ_ONCE(task->exit_code);
	}
	rcu_read_unlock();
	return code & 0x7f;
}

/* Does @id in @r's numbering still name @tgid, or nobody? */
static bool fdr_id_still_names(const struct fdr_region *r, s32 id,
			       struct pid *tgid)
{
	struct pid *now;

	rcu_read_lock();
	now = id > 0 ? find_pid_ns(id, r->pid_ns) :
		       find_pid_ns(-id, &init_pid_ns);
	rcu_read_unlock();
	return !now || now == tgid;
}

/*
 * The teardown of the address space of @owner, which mapped @r, ran in
 * another task (the one that dropped the last reference: a reader of
 * /proc/PID/mem, a CLONE_VM sibling, a ptracer): reclaim and finalize
 * for @owner, not for current.
 */
static void fdr_reclaim_owner_locked(struct fdr_region *r, struct pid *owner,
				     bool was_writer)
{
	s32 id = fdr_owner_id(r, owner);
	int sig = fdr_pid_fatal_signal(owner);
	u32 n = 0;

	/* A number already reused names another process's buffers. */
	if (fdr_id_still_names(r, id, owner))
		n = fdr_reclaim_owner(r, id);
	if (sig && (n || was_writer))
		fdr_state_crash_finalize_locked(r->dev, r, sig, owner);
}

/**
 * fdr_reclaim_on_unmap - the last VMA of @region in an mm is gone
 * @region: the region
 * @mm: that address space (only compared and its user count read: it
 *      is being torn down, not freed, while its VMAs close)
 * @owner: the tgid of the process that mapped @region into @mm, NULL if
 *         unknown (a fork()ed copy)
 * @was_writer: some VMA of that mm mapped @region writable
 *
 * Called from vm_ops->close once per address space (mmap.c counts the
 * VMAs), or once per VMA for a VMA mmap.c could not count.  Only the
 * teardown of the whole address space (its last user gone: exit, exec,
 * or the last reference dropped by another task) reclaims, for the
 * process whose address space it was, whichever task runs the teardown.
 */
void fdr_reclaim_on_unmap(struct fdr_region *region,
			  const struct mm_struct *mm, struct pid *owner,
			  bool was_writer)
{
	struct fdr_dev *dev = region->dev;

	if (atomic_read(&mm->mm_users))
		return;		/* munmap(), mremap(): the process lives on */
	if (owner == task_tgid(current))
		owner = NULL;	/* its own exit or exec: current's rules */
	else if (!owner && !(fdr_current_image_gone() &&
			     (current->in_execve || !current->mm)))
		return;		/* unknown owner, torn down by another task */
	mutex_lock(&dev->lock);
	if (owner)
		fdr_reclaim_owner_locked(region, owner, was_writer);
	else
		fdr_reclaim_current_locked(region, was_writer);
	mutex_unlock(&dev->lock);
}

/*
 * Has the process that opened @ff exited (or is it exiting right now)?
 * A number that already names a new process in @r's numbering (@id)
 * does not count as gone: its buffers are the new process's.
 */
static bool fdr_opener_gone(const struct fdr_region *r,
			    const struct fdr_file *ff, s32 id)
{
	struct task_struct *task;
	struct pid *now;
	bool gone;

	rcu_read_lock();
	task = pid_task(ff->opener, PIDTYPE_TGID);
	gone = !task || !atomic_read(&task->signal->live);
	now = id > 0 ? find_pid_ns(id, r->pid_ns) :
		       find_pid_ns(-id, &init_pid_ns);
	if (now && now != ff->opener)
		gone = false;
	rcu_read_unlock();
	return gone;
}

/*
 * Release of a file: if its opener is gone, its HELD buffers in the
 * current region are reclaimed.  A live process that merely closed the
 * fd keeps its buffers: it may still be recording through its mapping.
 */
void fdr_reclaim_on_release(struct fdr_file *ff)
{
	struct fdr_dev *dev = fdr_file_dev(ff);
	bool by_opener = task_tgid(current) == ff->opener;
	struct fdr_region *r;
	s32 id;

	if (by_opener && !fdr_current_image_gone())
		return;
	mutex_lock(&dev->lock);
	r = dev->region;
	if (r && by_opener && READ_ONCE(ff->revoked)) {
		/* a revoked writer's death finalizes nothing of the owner's */
		fdr_reclaim_owner(r, fdr_owner_id(r, task_tgid(current)));
	} else if (r && by_opener) {
		fdr_reclaim_current_locked(r, false);
	} else if (r) {
		/* an inherited fd: reclaim, no finalize */
		id = fdr_owner_id(r, ff->opener);
		if (fdr_opener_gone(r, ff, id))
			fdr_reclaim_owner(r, id);
	}
	mutex_unlock(&dev->lock);
}
