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

int fdr_sched_module_init(void);
void fdr_sched_module_exit(void);
bool fdr_sched_wanted(const struct fdr_init *cfg);
u64 fdr_sched_area_size(void);

int fdr_sched_alloc(struct fdr_region *r);
void fdr_sched_free(struct fdr_region *r);
int fdr_sched_prepare(void);
int fdr_sched_start(struct fdr_region *r);
void fdr_sched_stop(struct fdr_region *r);
void fdr_sched_quiesce(struct fdr_region *r);
void fdr_sched_status(const struct fdr_region *r, struct fdr_status *st);
int fdr_sched_mmap(struct fdr_region *r, struct vm_area_struct *vma,
		   unsigned long pgoff);

#endif /* FDR_SCHED_H */
