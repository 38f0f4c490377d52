// SPDX-License-Identifier: GPL-2.0
/*
 * sched_area.c - a region's scheduling area: its geometry, memory,
 * read-only mapping and counts (layout: <linux/fdr_sched.h>).
 *
 * The area is separate from the region's pages because those are mapped
 * writable by every writer; this one is written by the kernel alone, so
 * a reader can trust what it maps and no process can steer the probes.
 */
#include <linux/log2.h>
#include <linux/mm.h>
#include <linux/slab.h>
#include <linux/vmalloc.h>
#include "compat.h"
#include "fdr_dev.h"
#include "region.h"
#include "sched.h"
#include "tsc.h"

#define FDR_SCHED_MIN_RECORDS	64u
/* sched_ring_kb's bound (params.c) makes 2^21; more is refused here too. */
#define FDR_SCHED_MAX_RECORDS	(1u << 21)

/**
 * fdr_sched_geometry - the one place the area's layout is computed
 * @ring_bytes: the INIT's copy of sched_ring_kb, in bytes
 * @g: filled on success
 *
 * In 64 bits throughout: a ring of @ring_bytes / 32 records rounded down
 * to a power of two, at least FDR_SCHED_MIN_RECORDS.
 *
 * Return: 0, or -EINVAL for a ring too large to index (no area).
 */
int fdr_sched_geometry(u64 ring_bytes, struct fdr_sched_geometry *g)
{
	u64 want = ring_bytes / FDR_SCHED_RECORD_SIZE;
	u64 records;

	if (want > FDR_SCHED_MAX_RECORDS)
		return -EINVAL;
	g->nr_cpus = nr_cpu_ids;
	g->ring_records = rounddown_pow_of_two(max_t(u64, want,
					       FDR_SCHED_MIN_RECORDS));
	g->records_offset = FDR_SCHED_AREA_SIZE +
			    (u64)g->nr_cpus * FDR_SCHED_RING_SIZE;
	records = (u64)g->nr_cpus * g->ring_records * FDR_SCHED_RECORD_SIZE;
	g->size = PAGE_ALIGN(g->records_offset + records);
	return 0;
}

static void fdr_sched_fill_header(struct fdr_sched *s,
				  const struct fdr_sched_geometry *g,
				  u32 generation)
{
	struct fdr_sched_area *a = s->area;

	a->magic = FDR_SCHED_AREA_MAGIC;
	a->version = FDR_SCHED_VERSION;
	a->record_size = FDR_SCHED_RECORD_SIZE;
	a->generation = generation;
	a->nr_cpus = g->nr_cpus;
	a->ring_records = g->ring_records;
	a->rings_offset = FDR_SCHED_AREA_SIZE;
	a->records_offset = g->records_offset;
	a->tsc_hz = fdr_tsc_hz();
}

/**
 * fdr_sched_alloc - give @r a zeroed scheduling area
 * @r: a region being created (generation set, not yet visible)
 * @g: the INIT's geometry, the one its memory was accounted with
 *
 * Return: 0, -EINVAL for an empty geometry (the probes index the rings
 * with ring_records - 1), -ENOMEM.
 */
int fdr_sched_alloc(struct fdr_region *r, const struct fdr_sched_geometry *g)
{
	struct fdr_sched *s;

	if (!g->ring_records || !is_power_of_2(g->ring_records) ||
	    g->nr_cpus != nr_cpu_ids ||
	    g->size < g->records_offset + (u64)g->nr_cpus * g->ring_records *
		      FDR_SCHED_RECORD_SIZE)
		return -EINVAL;
	s = kzalloc(sizeof(*s), GFP_KERNEL);
	if (!s)
		return -ENOMEM;
	/* Zeroed and VM_USERMAP, for remap_vmalloc_range(). */
	s->area = vmalloc_user(g->size);
	if (!s->area) {
		kfree(s);
		return -ENOMEM;
	}
	s->size = g->size;
	s->nr_cpus = g->nr_cpus;
	s->ring_records = g->ring_records;
	s->rings = s->area + FDR_SCHED_AREA_SIZE;
	s->records = s->area + g->records_offset;
	fdr_sched_fill_header(s, g, r->generation);
	r->sched = s;
	return 0;
}

void fdr_sched_free(struct fdr_region *r)
{
	if (!r->sched)
		return;
	vfree(r->sched->area);
	kfree(r->sched);
	r->sched = NULL;
}

/* Records written and overwritten so far, over every CPU's ring. */
void fdr_sched_status(const struct fdr_region *r, struct fdr_status *st)
{
	const struct fdr_sched *s = r->sched;
	u32 cpu;

	if (!s)
		return;
	st->sched_offset = r->map_size;
	st->sched_size = s->size;
	for (cpu = 0; cpu < s->nr_cpus; cpu++) {
		u64 head = smp_load_acquire(&s->rings[cpu].head);

		st->sched_records += head;
		if (head > s->ring_records)
			st->sched_overwritten += head - s->ring_records;
	}
}

/* Each VMA holds its region and the region's session (mmap.c). */
static void fdr_sched_vm_open(struct vm_area_struct *vma)
{
	struct fdr_region *r = vma->vm_private_data;

	fdr_region_get(r);
	fdr_session_get(r->dev);
}

static void fdr_sched_vm_close(struct vm_area_struct *vma)
{
	struct fdr_region *r = vma->vm_private_data;
	struct fdr_dev *dev = r->dev;

	fdr_region_put(r);
	fdr_session_put(dev);
}

/* Only refills PTEs zapped later, e.g. by madvise(MADV_DONTNEED). */
static vm_fault_t fdr_sched_vm_fault(struct vm_fault *vmf)
{
	struct fdr_region *r = vmf->vma->vm_private_data;
	unsigned long off;

	if (vmf->pgoff < r->nr_pages)
		return VM_FAULT_SIGBUS;
	off = vmf->pgoff - r->nr_pages;
	if (off >= r->sched->size >> PAGE_SHIFT)
		return VM_FAULT_SIGBUS;
	return vmf_insert_page(vmf->vma, vmf->address,
			       vmalloc_to_page(r->sched->area +
					       (off << PAGE_SHIFT)));
}

static const struct vm_operations_struct fdr_sched_vm_ops = {
	.open = fdr_sched_vm_open,
	.close = fdr_sched_vm_close,
	.fault = fdr_sched_vm_fault,
};

/**
 * fdr_sched_mmap - map @r's scheduling area, read-only
 * @r: the region; on success the VMA keeps the caller's reference
 * @vma: the new mapping; its file offset lies past the region's pages
 * @pgoff: page offset into the area
 *
 * Return: 0, -EINVAL without an area or out of its bounds, -EPERM for a
 * writable mapping (and no later mprotect() can make it one).
 */
int fdr_sched_mmap(struct fdr_region *r, struct vm_area_struct *vma,
		   unsigned long pgoff)
{
	int err;

	if (!r->sched)
		return -EINVAL;
	if (vma->vm_flags & VM_WRITE)
		return -EPERM;
	vm_flags_clear(vma, VM_MAYWRITE | VM_MAYEXEC);
	/* Checks the bounds; sets VM_DONTEXPAND | VM_DONTDUMP. */
	err = remap_vmalloc_range(vma, r->sched->area, pgoff);
	if (err)
		return err;
	vma->vm_private_data = r;
	vma->vm_ops = &fdr_sched_vm_ops;
	return 0;
}
