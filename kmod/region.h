/* SPDX-License-Identifier: GPL-2.0 */
/*
 * region.h - one INIT's memory: the control area and the trace buffers,
 * reference counted so that mappings keep it alive across RESET.
 */
#ifndef FDR_REGION_H
#define FDR_REGION_H

#include <linux/hashtable.h>
#include <linux/kref.h>
#include <linux/mm_types.h>
#include <linux/mutex.h>
#include <linux/pid_namespace.h>
#include <linux/types.h>
#include <linux/uidgid.h>
#include <linux/fdr.h>
#include "sched.h"

struct fdr_dev;
struct fdr_init_params;

/*
 * Geometry fields are the kernel's own copy: the shared control area is
 * written from them and never read back for a decision.
 */
struct fdr_region {
	struct kref ref;		/* device + one per mapping: the struct */
	/*
	 * The memory (pages, control and scheduling areas, its accounting):
	 * the device and every mapping but those of revoked writers, whose
	 * references SESSION_REVOKE drops (fdr_file_revoke()).  Only a
	 * holder of this may touch ctl, pages or sched.
	 */
	struct kref pages_ref;
	struct fdr_dev *dev;
	struct fdr_control *ctl;	/* zeroed vmalloc control area */
	struct page **pages;		/* every page, in mmap offset order */
	unsigned long nr_pages;
	unsigned long nr_ctl_pages;	/* pages[0..nr_ctl_pages) are ctl's */
	u64 buffer_size;
	u32 rings_offset;		/* fdr_region_offsets_compute() */
	u32 descs_offset;
	u64 control_size;		/* and buffers_offset */
	u64 map_size;
	u32 nr_cpus;
	u32 buffers_per_cpu;
	u32 nr_buffers;
	u32 flags;			/* FDR_CTL_* */
	u32 generation;
	u64 reclaimed;			/* under dev->lock */
	u64 accounted;			/* in dev->live_bytes, set at INIT */
	/* The latency trigger of fdr_init, fixed for the region's life. */
	u64 trigger_ns;
	s32 trigger_fid;
	u32 trigger_holdoff_ms;
	/* Under dev->lock; the control area only gets copies. */
	u64 trigger_not_before_tsc;
	u64 triggers_fired;
	u64 triggers_refused;
	struct fdr_sched *sched;	/* scheduling area, or NULL */
	int sched_slot;			/* its slot while held, else -1 */
	struct pid_namespace *pid_ns;	/* of the INIT caller: owner ids */
	/*
	 * Whom the scheduling records may name besides the traced threads
	 * (fdr_sched_may_name()), fixed at INIT: tasks of this uid, or any
	 * task the pid namespace sees when the owner may see them all.
	 */
	kuid_t viewer_uid;
	bool viewer_sees_all;
	struct mutex mms_lock;		/* guards mms; never with dev->lock */
	/* struct fdr_mm_map by mm; RCU readers: the scheduling probes */
	DECLARE_HASHTABLE(mms, 8);
};

/*
 * The mappings of one region in one address space: the VMAs are counted
 * so that the process's buffers are reclaimed once, when the last of them
 * goes, not once per VMA.  The mm is only a key, never dereferenced: the
 * record goes with the mm's last VMA of the region, before the mm can be
 * freed and its address reused.
 */
struct fdr_mm_map {
	struct hlist_node node;
	struct rcu_head rcu;
	const struct mm_struct *mm;
	struct pid *owner;		/* tgid that mmap()ed it; NULL: a fork */
	unsigned long nr_vmas;
	bool writable;			/* some VMA was mapped writable: traced */
	/* ... through a session writer's file: traced until a revoke */
	bool writer_writable;
};

/*
 * The sizes one INIT asks for, computed once, with overflow checks, from
 * its request and its copy of the parameters: what is checked, accounted,
 * allocated and reported is this and nothing read later.
 */
struct fdr_layout {
	u32 nr_cpus;
	struct fdr_region_offsets off;	/* the ABI's layout (linux/fdr.h) */
	struct fdr_sched_geometry sched; /* size 0: no scheduling area */
	int sched_slot;			/* reserved for it, else -1 */
	u64 bytes;			/* off.map_size + sched.size */
};

int fdr_region_layout(const struct fdr_init *cfg,
		      const struct fdr_init_params *p, bool sched,
		      struct fdr_layout *l);
void fdr_layout_drop_sched(struct fdr_layout *l);
struct fdr_region *fdr_region_create(struct fdr_dev *dev,
				     const struct fdr_init *cfg,
				     const struct fdr_layout *l,
				     u32 ctl_flags, u32 generation);
void fdr_region_get(struct fdr_region *region);
void fdr_region_put(struct fdr_region *region);
void fdr_region_hold(struct fdr_region *region);
void fdr_region_unhold(struct fdr_region *region);
void fdr_region_put_pages(struct fdr_region *region);

/* CPU @cpu's ring cursor; @cpu < nr_cpus, the kernel's geometry. */
static inline struct fdr_cpu_ring *
fdr_region_ring(const struct fdr_region *region, u32 cpu)
{
	return (struct fdr_cpu_ring *)((char *)region->ctl +
		region->rings_offset) + cpu;
}

/* Descriptor @i; @i < nr_buffers. */
static inline struct fdr_buffer_desc *
fdr_region_desc(const struct fdr_region *region, u32 i)
{
	return (struct fdr_buffer_desc *)((char *)region->ctl +
		region->descs_offset) + i;
}

#endif /* FDR_REGION_H */
