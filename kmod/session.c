// SPDX-License-Identifier: GPL-2.0
/*
 * session.c - named sessions: recorders of their own, owned by the uid
 * that made them, beside the machine-wide default session.
 *
 * A file of /dev/fdr starts on the default session and may be bound,
 * once, to a named one (Documentation/abi.md, "Sessions").  A session
 * lives while a file is bound to it or a mapping of one of its regions
 * exists; the sessions list and the memory accounting share one mutex,
 * taken inside dev->lock and mmap_lock, never around either.
 */
#include <linux/capability.h>
#include <linux/cred.h>
#include <linux/lockdep.h>
#include <linux/mutex.h>
#include <linux/slab.h>
#include <linux/string.h>
#include "fdr_dev.h"
#include "region.h"
#include "sched.h"

struct fdr_dev fdr_default_session;

static LIST_HEAD(fdr_sessions);
static DEFINE_MUTEX(fdr_sessions_lock);	/* the list, the accounting */

void fdr_session_module_init(void)
{
	fdr_dev_setup(&fdr_default_session);
}

void fdr_session_get(struct fdr_dev *dev)
{
	if (dev->is_session)
		kref_get(&dev->ref);
}

/*
 * Called with fdr_sessions_lock held, which it drops.  No file and no
 * mapping is left, so nothing records into the region any more; its
 * scheduling probes may still be live if it was never finalized.
 */
static void fdr_session_release(struct kref *ref)
	__releases(&fdr_sessions_lock)
{
	struct fdr_dev *dev = container_of(ref, struct fdr_dev, ref);

	list_del(&dev->node);
	mutex_unlock(&fdr_sessions_lock);
	if (dev->region) {
		fdr_sched_stop(dev->region);
		fdr_sched_quiesce(dev->region);
	}
	fdr_dev_teardown(dev);
	kfree(dev);
}

void fdr_session_put(struct fdr_dev *dev)
{
	if (dev->is_session)
		kref_put_mutex(&dev->ref, fdr_session_release,
			       &fdr_sessions_lock);
}

/* Names are scoped by owner: @owner's session @name, or NULL. */
static struct fdr_dev *fdr_session_find_locked(kuid_t owner, const char *name)
{
	struct fdr_dev *dev;

	lockdep_assert_held(&fdr_sessions_lock);
	list_for_each_entry(dev, &fdr_sessions, node)
		if (uid_eq(dev->owner, owner) && !strcmp(dev->name, name))
			return dev;
	return NULL;
}

static u32 fdr_sessions_owned_locked(kuid_t uid)
{
	struct fdr_dev *dev;
	u32 n = 0;

	list_for_each_entry(dev, &fdr_sessions, node)
		n += uid_eq(dev->owner, uid);
	return n;
}

/*
 * Bind @ff, still on the default session, to @dev: under the default
 * session's lock, so a flush @ff holds there is seen and kept (EBUSY).
 * The bound file carries @dev's reference the caller took.
 */
static int fdr_file_bind(struct fdr_file *ff, struct fdr_dev *dev, u32 role)
{
	struct fdr_dev *def = &fdr_default_session;
	int err = 0;

	mutex_lock(&def->lock);
	if (READ_ONCE(ff->dev) != def || def->flush_owner == ff) {
		err = -EBUSY;
	} else {
		ff->role = role;
		ff->events_seen = READ_ONCE(dev->events);
		/* The file's pollers follow it (fdr_file.wake). */
		remove_wait_queue(&def->waitq, &ff->wake);
		add_wait_queue(&dev->waitq, &ff->wake);
		/* Pairs with fdr_file_dev(): the role is seen with it. */
		smp_store_release(&ff->dev, dev);
		wake_up_interruptible_all(&ff->waitq);
	}
	mutex_unlock(&def->lock);
	return err;
}

/* CREATE: a name, flags, a gid only with FDR_SESSION_GROUP, no owner. */
static int fdr_session_check(const struct fdr_session *req)
{
	if ((req->flags & ~FDR_SESSION_FLAGS_ALL) || req->owner_uid ||
	    !fdr_session_name_ok(req->name))
		return -EINVAL;
	if (!(req->flags & FDR_SESSION_GROUP) && req->gid)
		return -EINVAL;
	return 0;
}

/*
 * ATTACH: a name, no gid, and the owner it expects: owner_uid with
 * FDR_SESSION_OWNER (in the caller's user namespace), else itself.
 */
static int fdr_session_attach_check(const struct fdr_session *req,
				    kuid_t *owner)
{
	if ((req->flags & ~FDR_SESSION_ATTACH_FLAGS_ALL) || req->gid ||
	    !fdr_session_name_ok(req->name))
		return -EINVAL;
	if (!(req->flags & FDR_SESSION_OWNER)) {
		*owner = current_euid();
		return req->owner_uid ? -EINVAL : 0;
	}
	*owner = make_kuid(current_user_ns(), req->owner_uid);
	return uid_valid(*owner) ? 0 : -EINVAL;
}

/* The writers' group of a new session: one the caller is in. */
static int fdr_session_group(const struct fdr_session *req, kgid_t *gid)
{
	*gid = INVALID_GID;
	if (!(req->flags & FDR_SESSION_GROUP))
		return 0;
	*gid = make_kgid(current_user_ns(), req->gid);
	if (!gid_valid(*gid))
		return -EINVAL;
	if (!in_group_p(*gid) && !capable(CAP_SYS_ADMIN))
		return -EPERM;
	return 0;
}

static struct fdr_dev *fdr_session_alloc(const struct fdr_session *req,
					 kgid_t gid)
{
	struct fdr_dev *dev = kzalloc(sizeof(*dev), GFP_KERNEL);

	if (!dev)
		return NULL;
	fdr_dev_setup(dev);
	kref_init(&dev->ref);
	dev->is_session = true;
	dev->owner = current_euid();
	dev->writer_gid = gid;
	dev->session_flags = req->flags;
	strscpy(dev->name, req->name, sizeof(dev->name));
	return dev;
}

/**
 * fdr_session_create - FDR_IOC_SESSION_CREATE
 * @ff: the file, bound to the new session as its owner on success
 * @req: the kernel's copy of the request
 *
 * Return: 0, or -EINVAL, -EPERM, -EEXIST, -EDQUOT, -EBUSY, -ENOMEM; on
 * error no session is left behind.
 */
int fdr_session_create(struct fdr_file *ff, const struct fdr_session *req)
{
	struct fdr_dev *dev;
	kgid_t gid;
	int err;

	err = fdr_session_check(req);
	if (!err)
		err = fdr_session_group(req, &gid);
	if (err)
		return err;
	if (fdr_file_dev(ff) != &fdr_default_session)
		return -EBUSY;
	dev = fdr_session_alloc(req, gid);
	if (!dev)
		return -ENOMEM;

	mutex_lock(&fdr_sessions_lock);
	if (fdr_session_find_locked(dev->owner, dev->name))
		err = -EEXIST;
	else if (fdr_sessions_owned_locked(dev->owner) >=
		 fdr_param_max_user_sessions())
		err = -EDQUOT;
	else
		list_add_tail(&dev->node, &fdr_sessions);
	mutex_unlock(&fdr_sessions_lock);
	if (err) {
		fdr_dev_teardown(dev);
		kfree(dev);
		return err;
	}
	err = fdr_file_bind(ff, dev, FDR_ROLE_OWNER);
	if (err)
		fdr_session_put(dev);
	return err;
}

/* @dev's role for the caller, or -EACCES (ATTACH says ENOENT). */
static int fdr_session_role(const struct fdr_dev *dev)
{
	if (uid_eq(current_euid(), dev->owner) || capable(CAP_SYS_ADMIN))
		return FDR_ROLE_OWNER;
	if ((dev->session_flags & FDR_SESSION_GROUP) &&
	    in_group_p(dev->writer_gid))
		return FDR_ROLE_WRITER;
	return -EACCES;
}

/*
 * List @ff, just bound to @dev as a writer, for SESSION_REVOKE; one that
 * a revoke overtook (its role was decided before the group was dropped)
 * is revoked at once.
 */
static void fdr_session_bind_writer(struct fdr_file *ff, struct fdr_dev *dev)
{
	mutex_lock(&dev->revoke_lock);
	if (dev->writers_revoked)
		fdr_file_revoke(ff);
	else
		list_add_tail(&ff->wnode, &dev->writers);
	mutex_unlock(&dev->revoke_lock);
}

/**
 * fdr_session_unbind_writer - @ff is being released
 * @ff: a file of the device, bound or not
 *
 * Takes it off its session's writers, so no revoke reaches it any more.
 */
void fdr_session_unbind_writer(struct fdr_file *ff)
{
	struct fdr_dev *dev = fdr_file_dev(ff);

	if (ff->role != FDR_ROLE_WRITER)
		return;
	mutex_lock(&dev->revoke_lock);
	list_del_init(&ff->wnode);
	mutex_unlock(&dev->revoke_lock);
}

/**
 * fdr_session_revoke - FDR_IOC_SESSION_REVOKE, the owner's
 * @dev: the session of the caller's file (the caller checked the role)
 *
 * The session admits no writer any more (its group is dropped, so a
 * revoked writer cannot come back by attaching again), and every file
 * bound to it as a writer is revoked: EPERM for all it asks, and its
 * mappings are taken off the session's memory (fdr_file_revoke()).
 * The writers' files stay bound, so they still keep the session object
 * (its name) until they are closed, but neither its memory nor its
 * recording.
 *
 * Return: 0, or -EINVAL on the default session.
 */
int fdr_session_revoke(struct fdr_dev *dev)
{
	struct fdr_file *ff;

	if (!dev->is_session)
		return -EINVAL;
	/* fdr_session_role() reads these under the list lock. */
	mutex_lock(&fdr_sessions_lock);
	dev->session_flags &= ~FDR_SESSION_GROUP;
	dev->writer_gid = INVALID_GID;
	mutex_unlock(&fdr_sessions_lock);

	mutex_lock(&dev->revoke_lock);
	/* The probes stop recording the writers' threads. */
	WRITE_ONCE(dev->writers_revoked, true);
	list_for_each_entry(ff, &dev->writers, wnode)
		fdr_file_revoke(ff);
	mutex_unlock(&dev->revoke_lock);
	return 0;
}

/**
 * fdr_session_attach - FDR_IOC_SESSION_ATTACH
 * @ff: the file, bound to the session on success
 * @req: the kernel's copy of the request
 *
 * The session is the expected owner's (the caller's own by default), so
 * a name another user made cannot capture the caller's writers; one the
 * caller may not attach to answers as a missing one, so ATTACH is no
 * oracle of other users' names either.
 *
 * Return: 0, or -EINVAL, -ENOENT, -EBUSY.
 */
int fdr_session_attach(struct fdr_file *ff, const struct fdr_session *req)
{
	struct fdr_dev *dev;
	int role = -ENOENT;
	kuid_t owner;
	int err;

	err = fdr_session_attach_check(req, &owner);
	if (err)
		return err;
	mutex_lock(&fdr_sessions_lock);
	dev = fdr_session_find_locked(owner, req->name);
	if (dev)
		role = fdr_session_role(dev);
	if (role == -EACCES)
		role = -ENOENT;
	/* Listed, so not released yet: the lock orders it against that. */
	if (role >= 0)
		kref_get(&dev->ref);
	mutex_unlock(&fdr_sessions_lock);
	if (role < 0)
		return role;
	err = fdr_file_bind(ff, dev, role);
	if (err) {
		fdr_session_put(dev);
		return err;
	}
	if (role == FDR_ROLE_WRITER)
		fdr_session_bind_writer(ff, dev);
	return 0;
}

static void fdr_session_describe(const struct fdr_dev *dev, int role,
				 struct fdr_session_info *info)
{
	struct user_namespace *ns = current_user_ns();

	info->flags = dev->session_flags;
	info->owner_uid = from_kuid_munged(ns, dev->owner);
	info->gid = gid_valid(dev->writer_gid) ?
		    from_kgid_munged(ns, dev->writer_gid) : 0;
	info->state = READ_ONCE(dev->state);
	info->live_bytes = atomic64_read(&dev->live_bytes);
	info->role = role;
	strscpy(info->name, dev->name, sizeof(info->name));
}

/**
 * fdr_session_info - FDR_IOC_SESSION_INFO
 * @info: index set by the caller; the rest is filled
 *
 * Only sessions the caller could attach to count.
 *
 * Return: 0, or -ENOENT past the last one.
 */
int fdr_session_info(struct fdr_session_info *info)
{
	struct fdr_dev *dev;
	u32 seen = 0;
	int err = -ENOENT;

	mutex_lock(&fdr_sessions_lock);
	list_for_each_entry(dev, &fdr_sessions, node) {
		int role = fdr_session_role(dev);

		if (role < 0 || seen++ != info->index)
			continue;
		fdr_session_describe(dev, role, info);
		err = 0;
		break;
	}
	mutex_unlock(&fdr_sessions_lock);
	return err;
}

/**
 * fdr_account_reserve - count @bytes of a new region of @dev
 * @dev: the session whose INIT allocates
 * @bytes: the region's memory
 * @p: the INIT's copy of the limits
 *
 * The memory of every live region of every session counts against
 * max_total_mb, and that of a named session's owner against
 * max_user_mb.  Released with fdr_account_release().
 *
 * Return: 0, -ENOMEM over max_total_mb, -EDQUOT over max_user_mb.
 */
int fdr_account_reserve(struct fdr_dev *dev, u64 bytes,
			const struct fdr_init_params *p)
{
	struct fdr_dev *s;
	u64 total, user = 0;
	int err = 0;

	mutex_lock(&fdr_sessions_lock);
	total = atomic64_read(&fdr_default_session.live_bytes);
	list_for_each_entry(s, &fdr_sessions, node) {
		u64 b = atomic64_read(&s->live_bytes);

		total += b;
		if (dev->is_session && uid_eq(s->owner, dev->owner))
			user += b;
	}
	if (total + bytes > p->max_total_bytes)
		err = -ENOMEM;
	else if (dev->is_session && user + bytes > p->max_user_bytes)
		err = -EDQUOT;
	else
		atomic64_add(bytes, &dev->live_bytes);
	mutex_unlock(&fdr_sessions_lock);
	return err;
}

/* Frees only lower the sums: no lock needed. */
void fdr_account_release(struct fdr_dev *dev, u64 bytes)
{
	atomic64_sub(bytes, &dev->live_bytes);
}
