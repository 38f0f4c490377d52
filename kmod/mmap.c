// SPDX-License-Identifier: GPL-2.0
/*
 * mmap.c - mapping a region into a process.
 *
 * The pages are inserted with vm_insert_pages() at mmap time: recording
 * never faults into the module, and the VMA is a normal-page mapping (no
 * VM_IO / VM_PFNMAP) so gdb, O_DIRECT and io_uring can use it.  Each VMA
 * holds a region reference, which keeps the pages alive across RESET, and
 * is counted in its mm's struct fdr_mm_map, so that a dying process with
 * many VMAs is reclaimed once.  Each VMA also holds the region's session,
 * so that region->dev outlives every mapping.
 */
#include <linux/hashtable.h>
#include <linux/lockdep.h>
#include <linux/mm.h>
#include <linux/mutex.h>
#include <linux/slab.h>
#include "compat.h"
#include "fdr_dev.h"
#include "region.h"
#include "sched.h"

static struct fdr_mm_map *fdr_mm_map_find(struct fdr_region *r,
					   const struct mm_struct *mm)
{
	struct fdr_mm_map *m;

	lockdep_assert_held(&r->mms_lock);
	hash_for_each_possible(r->mms, m, node, (unsigned long)mm)
		if (m->mm == mm)
			return m;
	return NULL;
}

/*
 * Count @vma in its mm's record, using @fresh (consumed, set to NULL) if
 * the mm has none yet.  Without either the VMA is simply not counted:
 * its close then reclaims on its own (fdr_vm_close()).
 */
static void fdr_mm_map_add_locked(struct fdr_region *r,
				  struct vm_area_struct *vma,
				  struct fdr_mm_map **fresh)
{
	struct fdr_mm_map *m = fdr_mm_map_find(r, vma->vm_mm);

	if (!m && *fresh) {
		m = *fresh;
		*fresh = NULL;
		m->mm = vma->vm_mm;
		hash_add_rcu(r->mms, &m->node, (unsigned long)m->mm);
	}
	if (!m)
		return;
	/*
	 * Whose address space: reclaim must not ask current, who may be
	 * another task when the last reference goes.  fork() copies VMAs
	 * from the parent's context: unknown until the child maps or
	 * splits one itself.
	 */
	if (!m->owner && current->mm == vma->vm_mm)
		m->owner = get_pid(task_tgid(current));
	m->nr_vmas++;
	if (vma->vm_flags & VM_WRITE)
		WRITE_ONCE(m->writable, true);
}

/*
 * A copy of a VMA: a split or mremap in the same mm, or fork into a new
 * one (which needs a record of its own; this may not fail, so a failed
 * allocation leaves the VMA uncounted).  Sleeping is fine: callers hold
 * mmap_lock, which nests outside mms_lock.
 */
static void fdr_vm_open(struct vm_area_struct *vma)
{
	struct fdr_region *region = vma->vm_private_data;
	struct fdr_mm_map *fresh = NULL;

	fdr_region_get(region);
	fdr_session_get(region->dev);
	mutex_lock(&region->mms_lock);
	if (!fdr_mm_map_find(region, vma->vm_mm))
		fresh = kzalloc(sizeof(*fresh), GFP_KERNEL | __GFP_NOWARN);
	fdr_mm_map_add_locked(region, vma, &fresh);
	mutex_unlock(&region->mms_lock);
	kfree(fresh);
}

/*
 * The last VMA of the region in an mm reclaims, if the process is dying:
 * one scan of the descriptors per process, not one per VMA.  The count
 * has its own lock, so the other closes never wait for dev->lock (held
 * by STATUS for a count of every descriptor).
 */
static void fdr_vm_close(struct vm_area_struct *vma)
{
	struct fdr_region *region = vma->vm_private_data;
	struct fdr_dev *dev = region->dev;
	bool writable = vma->vm_flags & VM_WRITE;
	bool last = true;	/* an uncounted VMA reclaims by itself */
	struct pid *owner = NULL;
	struct fdr_mm_map *m;

	mutex_lock(&region->mms_lock);
	m = fdr_mm_map_find(region, vma->vm_mm);
	if (m) {
		writable |= m->writable;
		WRITE_ONCE(m->writable, writable);
		last = !--m->nr_vmas;
		if (last) {
			hash_del_rcu(&m->node);
			owner = m->owner;	/* the reference comes along */
		} else {
			m = NULL;
		}
	}
	mutex_unlock(&region->mms_lock);
	if (m)
		kfree_rcu(m, rcu);
	if (last)
		fdr_reclaim_on_unmap(region, vma->vm_mm, owner, writable);
	put_pid(owner);
	fdr_region_put(region);
	fdr_session_put(dev);
}

/* Only refills PTEs zapped later, e.g. by madvise(MADV_DONTNEED). */
static vm_fault_t fdr_vm_fault(struct vm_fault *vmf)
{
	struct fdr_region *region = vmf->vma->vm_private_data;

	if (vmf->pgoff >= region->nr_pages)
		return VM_FAULT_SIGBUS;
	return vmf_insert_page(vmf->vma, vmf->address,
			       region->pages[vmf->pgoff]);
}

static const struct vm_operations_struct fdr_vm_ops = {
	.open = fdr_vm_open,
	.close = fdr_vm_close,
	.fault = fdr_vm_fault,
};

static struct fdr_region *fdr_current_region(struct fdr_dev *dev)
{
	struct fdr_region *region;

	mutex_lock(&dev->lock);
	region = dev->region;
	if (region)
		fdr_region_get(region);
	mutex_unlock(&dev->lock);
	return region;
}

/*
 * A session's writer (FDR_ROLE_WRITER) records: it maps the region
 * writable, never read-only as a flusher does, nor the scheduling area.
 */
static bool fdr_mmap_role_allows(const struct fdr_file *ff,
				 const struct vm_area_struct *vma, bool sched)
{
	return ff->role != FDR_ROLE_WRITER ||
	       (!sched && (vma->vm_flags & VM_WRITE));
}

/* The region's pages, all inserted now; nothing may fail after that. */
static int fdr_mmap_region(struct fdr_region *region,
			   struct vm_area_struct *vma)
{
	unsigned long npages = vma_pages(vma);
	struct fdr_mm_map *fresh;
	unsigned long left;
	int err;

	if (npages > region->nr_pages - vma->vm_pgoff)
		return -EINVAL;
	fresh = kzalloc(sizeof(*fresh), GFP_KERNEL);
	if (!fresh)
		return -ENOMEM;
	/*
	 * No mremap growth, no later mprotect(PROT_EXEC); no core-dump copy
	 * of a trace that other processes write (a live debugger still
	 * reads it).
	 */
	vm_flags_set(vma, VM_DONTEXPAND | VM_DONTDUMP);
	vm_flags_clear(vma, VM_MAYEXEC);
	left = npages;
	err = vm_insert_pages(vma, vma->vm_start,
			      region->pages + vma->vm_pgoff, &left);
	if (err) {
		kfree(fresh);
		return err;
	}
	vma->vm_private_data = region;
	vma->vm_ops = &fdr_vm_ops;
	mutex_lock(&region->mms_lock);
	fdr_mm_map_add_locked(region, vma, &fresh);
	mutex_unlock(&region->mms_lock);
	kfree(fresh);
	return 0;
}

/*
 * MAP_SHARED only (a private copy would not be the recorder); offset and
 * length within the region; ENODEV while there is no region.  Offsets
 * past the region's pages are its scheduling area (sched_area.c).  VM_MAYSHARE
 * is the MAP_SHARED bit: do_mmap() clears VM_SHARED for a read-only
 * shared mapping of an O_RDONLY file, which is how fdrd maps.  On
 * success the VMA holds a region and a session reference.
 */
int fdr_mmap(struct file *file, struct vm_area_struct *vma)
{
	struct fdr_file *ff = file->private_data;
	struct fdr_dev *dev = fdr_file_dev(ff);
	struct fdr_region *region;
	bool sched;
	int err;

	if (!(vma->vm_flags & VM_MAYSHARE))
		return -EINVAL;
	/* Trace data is never code: refuse it, as a noexec mount does. */
	if (vma->vm_flags & VM_EXEC)
		return -EPERM;
	region = fdr_current_region(dev);
	if (!region)
		return -ENODEV;
	sched = vma->vm_pgoff >= region->nr_pages;
	if (!fdr_mmap_role_allows(ff, vma, sched))
		err = -EACCES;
	else if (sched)
		err = fdr_sched_mmap(region, vma,
				     vma->vm_pgoff - region->nr_pages);
	else
		err = fdr_mmap_region(region, vma);
	if (err) {
		fdr_region_put(region);
		return err;
	}
	fdr_session_get(dev);
	return 0;
}
