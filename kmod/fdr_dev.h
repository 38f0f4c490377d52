/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fdr_dev.h - the device object, per-file state and the entry points the
 * files of fdr.ko call in each other.  Nothing here is ABI.
 */
#ifndef FDR_DEV_H
#define FDR_DEV_H

#include <linux/atomic.h>
#include <linux/kref.h>
#include <linux/list.h>
#include <linux/uidgid.h>
#include <linux/fs.h>
#include <linux/mm_types.h>
#include <linux/mutex.h>
#include <linux/pid.h>
#include <linux/types.h>
#include <linux/wait.h>
#include <linux/xarray.h>
#include <linux/fdr.h>

struct fdr_region;

/*
 * One recorder: the default session (fdr_default_session, machine-wide)
 * or a named one (session.c).  The kernel's own copy of the state lives
 * here and is authoritative; the control area only gets a copy.
 */
struct fdr_dev {
	struct mutex lock;		/* serializes every transition */
	wait_queue_head_t waitq;	/* poll(): woken on every change */
	u64 events;			/* bumped on every state change */
	u32 state;			/* enum fdr_state */
	u32 flush_state;		/* enum fdr_flush_state */
	u32 finalize_reason;		/* enum fdr_finalize_reason */
	u32 finalize_signal;
	struct pid *finalize_pid;	/* tgid that caused the finalize */
	struct pid *finalize_tid;	/* FDR_FINALIZE_TRIGGER: its thread */
	u64 finalize_time_ns;
	/* FDR_FINALIZE_TRIGGER: what the caller claims fired it */
	u64 finalize_duration_ns;
	s32 finalize_fid;
	/*
	 * The last trigger that fired, kept across RESET and INIT: the
	 * holdoff is the device's, whichever process or region fires.
	 */
	bool trigger_fired;		/* since the module was loaded */
	u64 trigger_last_ns;		/* CLOCK_MONOTONIC */
	u64 trigger_last_tsc;		/* the TSC at the same moment */
	u32 generation;			/* of the last INIT, never 0 after it */
	struct fdr_region *region;	/* the device's reference, or NULL */
	struct fdr_file *flush_owner;	/* FLUSH_BEGIN's file while FLUSHING */
	/* region has FDR_CTL_STREAM: a copy for the lockless poll() */
	bool stream;
	atomic64_t live_bytes;		/* memory of every region alive */
	/*
	 * A named session: freed with its last reference, one per bound
	 * file and per mapping of any of its regions (so region->dev
	 * stays valid).  The rest is fixed at creation.
	 */
	bool is_session;
	struct kref ref;
	struct list_head node;		/* in the sessions list */
	kuid_t owner;
	kgid_t writer_gid;		/* FDR_SESSION_GROUP */
	u32 session_flags;		/* FDR_SESSION_* */
	char name[FDR_SESSION_NAME_MAX];
	/*
	 * The files bound as writers (fdr_file.wnode), under revoke_lock;
	 * writers_revoked: SESSION_REVOKE ran, no writer is left or
	 * admitted (the probes read it without the lock).
	 */
	struct mutex revoke_lock;
	struct list_head writers;
	bool writers_revoked;
};

/*
 * One open file description of /dev/fdr: dup()ed and inherited
 * descriptors share it, so it is released at the last close.
 */
struct fdr_file {
	struct fdr_dev *dev;		/* fdr_file_dev(); set once by a bind */
	u32 role;			/* enum fdr_session_role */
	struct pid *opener;		/* tgid of the process that opened it */
	u64 events_seen;		/* dev->events at this file's last STATUS */
	/*
	 * poll() waits here, not on a session's queue: an epoll registered
	 * before the bind stays on this one.  @wake sits on the queue of the
	 * session the file addresses (moved by the bind) and forwards its
	 * wake-ups.
	 */
	wait_queue_head_t waitq;
	struct wait_queue_entry wake;
	struct file *file;		/* ours: its f_mapping, for a revoke */
	/*
	 * A writer's file (FDR_ROLE_WRITER), under wlock: its mappings of
	 * each region (struct fdr_wmap, holding their memory references,
	 * which a revoke drops), whether it was revoked, and the private
	 * pages its mappings fault in after that (by page offset).
	 */
	struct list_head wnode;		/* in dev->writers */
	struct mutex wlock;
	bool revoked;			/* set once, under wlock */
	struct list_head wmaps;
	struct xarray spare;
};

/* The session @ff addresses: it changes once, from the default one. */
static inline struct fdr_dev *fdr_file_dev(struct fdr_file *ff)
{
	return smp_load_acquire(&ff->dev);
}

/* Regions that may record the scheduling view at once, machine-wide. */
#define FDR_SCHED_SLOTS		16

/*
 * The module parameters one INIT uses, read once at its start: a
 * parameter written while the INIT runs changes none of its sizes,
 * checks or accounting.
 */
struct fdr_init_params {
	u64 max_total_bytes;		/* max_total_mb */
	u64 max_user_bytes;		/* max_user_mb */
	u64 sched_ring_bytes;		/* sched_ring_kb */
	u32 max_user_sched;		/* scheduling slots one uid may hold */
	bool crash_finalize;
};

/* Module parameters (params.c), read once per use. */
void fdr_init_params_read(struct fdr_init_params *p);
u64 fdr_param_buffer_size(void);
u32 fdr_param_buffers_per_cpu(void);
umode_t fdr_param_dev_mode(void);
kgid_t fdr_param_dev_gid(void);
u32 fdr_param_max_user_sessions(void);

/* Sessions (session.c). */
extern struct fdr_dev fdr_default_session;
void fdr_session_module_init(void);
int fdr_session_create(struct fdr_file *ff, const struct fdr_session *req);
int fdr_session_attach(struct fdr_file *ff, const struct fdr_session *req);
int fdr_session_info(struct fdr_session_info *info);
int fdr_session_revoke(struct fdr_dev *dev);
void fdr_session_unbind_writer(struct fdr_file *ff);
void fdr_session_get(struct fdr_dev *dev);
void fdr_session_put(struct fdr_dev *dev);
int fdr_account_reserve(struct fdr_dev *dev, u64 bytes,
			const struct fdr_init_params *p);
void fdr_account_release(struct fdr_dev *dev, u64 bytes);

/* The state machine (state.c).  Each returns 0 or a negative errno. */
void fdr_dev_setup(struct fdr_dev *dev);
void fdr_dev_teardown(struct fdr_dev *dev);
int fdr_state_init(struct fdr_dev *dev, const struct fdr_init *cfg);
int fdr_state_finalize(struct fdr_dev *dev);
int fdr_state_trigger(struct fdr_dev *dev, const struct fdr_trigger *trig);
int fdr_state_flush_begin(struct fdr_dev *dev, struct fdr_file *ff);
int fdr_state_flush_done(struct fdr_dev *dev, struct fdr_file *ff);
int fdr_state_flush_abort(struct fdr_dev *dev, struct fdr_file *ff);
int fdr_state_flush_force_abort(struct fdr_dev *dev);
void fdr_state_release(struct fdr_dev *dev, struct fdr_file *ff);
int fdr_state_reset(struct fdr_dev *dev);
void fdr_state_status(struct fdr_dev *dev, struct fdr_file *ff,
		      struct fdr_status *st);
void fdr_state_crash_finalize_locked(struct fdr_dev *dev,
				     struct fdr_region *region, int sig,
				     struct pid *who);
__poll_t fdr_state_poll_mask(struct fdr_dev *dev, struct fdr_file *ff);

/* The ioctl entry point (ioctl.c). */
long fdr_ioctl(struct file *file, unsigned int cmd, unsigned long arg);

/* mmap (mmap.c). */
int fdr_mmap(struct file *file, struct vm_area_struct *vma);
void fdr_file_revoke(struct fdr_file *ff);
void fdr_file_free_spare(struct fdr_file *ff);

/* Reclaim of buffers whose owner process is gone (reclaim.c). */
s32 fdr_owner_id(const struct fdr_region *region, struct pid *tgid);
void fdr_reclaim_on_release(struct fdr_file *ff);
void fdr_reclaim_on_unmap(struct fdr_region *region,
			  const struct mm_struct *mm, struct pid *owner,
			  bool was_writer);

#endif /* FDR_DEV_H */
