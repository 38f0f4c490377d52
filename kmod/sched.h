/* SPDX-License-Identifier: GPL-2.0 */
/*
 * sched.h - the scheduling records of traced threads (sched.c): the
 * kernel-owned area, its probes and how the state machine drives them.
 * The layout is ABI: <linux/fdr_sched.h>.
 */
#ifndef FDR_SCHED_H
#define FDR_SCHED_H

#include <linux/mm_types.h>
#include <linux/types.h>
#include <linux/uidgid.h>
#include <linux/fdr.h>
#include <linux/fdr_sched.h>

struct fdr_region;

/*
 * One region's scheduling area: vmalloc_user() memory that only the
 * probes write (ring c by CPU c, interrupts off) and userspace maps
 * read-only.
 */
struct fdr_sched {
	void *area;			/* struct fdr_sched_area first */
	struct fdr_sched_ring *rings;	/* [nr_cpus] */
	struct fdr_sched_record *records; /* [nr_cpus][ring_records] */
	u64 size;			/* page aligned */
	u32 nr_cpus;
	u32 ring_records;		/* a power of two */
};

/*
 * The area's layout, computed once per INIT from that INIT's copy of
 * sched_ring_kb (sched_area.c, the one place) and used for its
 * accounting, its allocation and its header alike.
 */
struct fdr_sched_geometry {
	u32 nr_cpus;
	u32 ring_records;		/* a power of two, never 0 */
	u64 records_offset;
	u64 size;			/* page aligned */
};

int fdr_sched_module_init(void);
void fdr_sched_module_exit(void);
bool fdr_sched_wanted(const struct fdr_init *cfg);
int fdr_sched_geometry(u64 ring_bytes, struct fdr_sched_geometry *g);

int fdr_sched_alloc(struct fdr_region *r, const struct fdr_sched_geometry *g);
void fdr_sched_free(struct fdr_region *r);
int fdr_sched_prepare(void);
int fdr_sched_reserve(kuid_t uid, u32 share);
void fdr_sched_unreserve(int slot);
void fdr_sched_start(struct fdr_region *r);
void fdr_sched_stop(struct fdr_region *r);
void fdr_sched_quiesce(struct fdr_region *r);
void fdr_sched_status(const struct fdr_region *r, struct fdr_status *st);
int fdr_sched_mmap(struct fdr_region *r, struct vm_area_struct *vma,
		   unsigned long pgoff);

#endif /* FDR_SCHED_H */
