// SPDX-License-Identifier: GPL-2.0
/*
 * mmap.c - mapping a region into a process.
 *
 * The pages are inserted with vm_insert_pages() at mmap time (a session
 * writer's at its first touch, or by MAP_POPULATE, so that a revoke
 * cannot miss them): recording never faults into the module, and the
 * VMA is a normal-page mapping (no
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
#include <linux/poll.h>
#include <linux/slab.h>
#include "compat.h"
#include "fdr_dev.h"
#include "region.h"
#include "sched.h"

/*
 * A writer's mappings of one region: their memory references, which a
 * revoke drops all at once, and a struct reference of its own so that
 * the revoke can still reach the region.
 */
struct fdr_wmap {
	struct list_head node;		/* in fdr_file.wmaps */
	struct fdr_region *region;
	unsigned long nr_vmas;
};

/* The file a VMA of the device maps: ours, held by the VMA. */
static struct fdr_file *fdr_vma_file(const struct vm_area_struct *vma)
{
	return vma->vm_file->private_data;
}

/*
 * Is a mapping of @r through @ff a session writer's (counted in a wmap,
 * revocable)?  A file bound as writer may still map the default
 * session's region it mapped before the bind: those are not.  A session
 * region is mapped only after the bind, which publishes the role first.
 */
static bool fdr_writer_mapping(const struct fdr_file *ff,
			       const struct fdr_region *r)
{
	return r->dev->is_session && ff->role == FDR_ROLE_WRITER;
}

static bool fdr_vma_of_writer(const struct vm_area_struct *vma)
{
	return fdr_writer_mapping(fdr_vma_file(vma), vma->vm_private_data);
}

static struct fdr_wmap *fdr_wmap_find(struct fdr_file *ff,
				      const struct fdr_region *r)
{
	struct fdr_wmap *w;

	lockdep_assert_held(&ff->wlock);
	list_for_each_entry(w, &ff->wmaps, node)
		if (w->region == r)
			return w;
	return NULL;
}

/*
 * Count a new VMA of @r in writer file @ff: @fresh (consumed, set to
 * NULL) if @ff has none of @r yet.  False if there was neither: that VMA
 * then keeps its memory reference past a revoke (a leak, not a danger).
 */
static bool fdr_wmap_add_locked(struct fdr_file *ff, struct fdr_region *r,
				struct fdr_wmap **fresh)
{
	struct fdr_wmap *w = fdr_wmap_find(ff, r);

	if (!w && *fresh) {
		w = *fresh;
		*fresh = NULL;
		w->region = r;
		fdr_region_hold(r);
		list_add(&w->node, &ff->wmaps);
	}
	if (!w)
		return false;
	w->nr_vmas++;
	return true;
}

static void fdr_wmap_sub_locked(struct fdr_file *ff, struct fdr_region *r)
{
	struct fdr_wmap *w = fdr_wmap_find(ff, r);

	if (!w || --w->nr_vmas)
		return;
	list_del(&w->node);
	fdr_region_unhold(r);
	kfree(w);
}

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
	if (!(vma->vm_flags & VM_WRITE))
		return;
	if (fdr_vma_of_writer(vma))
		WRITE_ONCE(m->writer_writable, true);
	else
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
	struct fdr_file *ff = fdr_vma_file(vma);
	struct fdr_mm_map *fresh = NULL;

	if (fdr_vma_of_writer(vma)) {
		/* A copy of a VMA @ff counts already: never a new wmap. */
		struct fdr_wmap *none = NULL;

		mutex_lock(&ff->wlock);
		if (ff->revoked) {
			fdr_region_hold(region);	/* the struct only */
		} else {
			fdr_region_get(region);
			WARN_ON_ONCE(!fdr_wmap_add_locked(ff, region, &none));
		}
		mutex_unlock(&ff->wlock);
	} else {
		fdr_region_get(region);
	}
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
	struct fdr_file *ff = fdr_vma_file(vma);
	struct fdr_dev *dev = region->dev;
	bool writable = vma->vm_flags & VM_WRITE;
	bool last = true;	/* an uncounted VMA reclaims by itself */
	struct pid *owner = NULL;
	bool revoked = false;
	struct fdr_mm_map *m;

	if (fdr_vma_of_writer(vma)) {
		mutex_lock(&ff->wlock);
		revoked = ff->revoked;
		/* Our memory reference is ours again: no revoke drops it. */
		if (!revoked)
			fdr_wmap_sub_locked(ff, region);
		mutex_unlock(&ff->wlock);
	}

	mutex_lock(&region->mms_lock);
	m = fdr_mm_map_find(region, vma->vm_mm);
	if (m) {
		/* mprotect() may have made this one writable since. */
		if (writable && !fdr_vma_of_writer(vma))
			WRITE_ONCE(m->writable, true);
		writable |= m->writable ||
			    (m->writer_writable && !READ_ONCE(dev->writers_revoked));
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
	/* A revoked mapping has no memory to reclaim in, nor a say. */
	if (revoked) {
		fdr_region_unhold(region);
	} else {
		if (last)
			fdr_reclaim_on_unmap(region, vma->vm_mm, owner, writable);
		fdr_region_put(region);
	}
	put_pid(owner);
	fdr_session_put(dev);
}

/*
 * A revoked writer's page at @pgoff: zeroed, private to its file (the
 * processes sharing the file share it, as they shared the region), made
 * at the first fault and freed with the file.  Charged to the faulting
 * process's memory cgroup; at most the old region's size per file.
 */
static struct page *fdr_spare_page(struct fdr_file *ff, pgoff_t pgoff)
{
	struct page *page = xa_load(&ff->spare, pgoff);

	lockdep_assert_held(&ff->wlock);
	if (page)
		return page;
	page = alloc_page(GFP_KERNEL_ACCOUNT | __GFP_ZERO);
	if (page && xa_err(xa_store(&ff->spare, pgoff, page, GFP_KERNEL))) {
		__free_page(page);
		page = NULL;
	}
	return page;
}

/*
 * Only refills PTEs zapped later: by madvise(MADV_DONTNEED), or by a
 * revoke (every mapping of the device node refaults then).  A revoked
 * writer's mapping gets its spare pages, never the region's again: the
 * file lock orders this against the revoke, which zaps after setting
 * revoked, so no region page inserted before survives it.
 */
static vm_fault_t fdr_vm_fault(struct vm_fault *vmf)
{
	struct fdr_region *region = vmf->vma->vm_private_data;
	struct fdr_file *ff = fdr_vma_file(vmf->vma);
	struct page *page;
	vm_fault_t ret;

	if (vmf->pgoff >= region->nr_pages)
		return VM_FAULT_SIGBUS;
	if (!fdr_vma_of_writer(vmf->vma))
		return vmf_insert_page(vmf->vma, vmf->address,
				       region->pages[vmf->pgoff]);
	mutex_lock(&ff->wlock);
	page = ff->revoked ? fdr_spare_page(ff, vmf->pgoff) :
			     region->pages[vmf->pgoff];
	ret = page ? vmf_insert_page(vmf->vma, vmf->address, page) :
		     VM_FAULT_OOM;
	mutex_unlock(&ff->wlock);
	return ret;
}

/**
 * fdr_file_revoke - take writer file @ff's mappings off its session
 * @ff: a file bound as a writer (SESSION_REVOKE holds dev->revoke_lock)
 *
 * From now on its mappings fault in private zero pages (fdr_vm_fault()),
 * which read as UNINITIALIZED, so a libfdr writer stops, and take a late
 * write harmlessly: no SIGBUS.  Every page table entry of the device node
 * is zapped (the owner's and other sessions' mappings simply refault the
 * same pages), and only then are the mappings' memory references dropped:
 * the region's memory goes when the owner's last user of it does.  Pages
 * a mapping still shows keep the reference vm_insert_page() took, so no
 * page is freed while mapped.
 */
void fdr_file_revoke(struct fdr_file *ff)
{
	struct fdr_wmap *w, *tmp;
	LIST_HEAD(gone);

	mutex_lock(&ff->wlock);
	if (ff->revoked) {
		mutex_unlock(&ff->wlock);
		return;
	}
	WRITE_ONCE(ff->revoked, true);
	list_splice_init(&ff->wmaps, &gone);
	mutex_unlock(&ff->wlock);
	wake_up_interruptible_poll(&ff->waitq, EPOLLERR | EPOLLHUP);

	unmap_mapping_range(ff->file->f_mapping, 0, 0, 0);
	list_for_each_entry_safe(w, tmp, &gone, node) {
		while (w->nr_vmas--)
			fdr_region_put_pages(w->region);
		fdr_region_unhold(w->region);
		kfree(w);
	}
}

/**
 * fdr_file_free_spare - free a revoked writer file's spare pages
 * @ff: the file being released: no mapping of it is left (each holds it)
 */
void fdr_file_free_spare(struct fdr_file *ff)
{
	struct page *page;
	unsigned long i;

	xa_for_each(&ff->spare, i, page)
		__free_page(page);
	xa_destroy(&ff->spare);
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

/*
 * Insert @region's pages in @vma (unless it is a writer's: see below) and
 * count it; consumes @fresh.
 */
static int fdr_mmap_insert(struct fdr_region *region,
			   struct vm_area_struct *vma, struct fdr_mm_map *fresh,
			   bool populate)
{
	unsigned long left = vma_pages(vma);
	int err = 0;

	/*
	 * No mremap growth, no later mprotect(PROT_EXEC); no core-dump copy
	 * of a trace that other processes write (a live debugger still
	 * reads it).  VM_MIXEDMAP as vm_insert_page() would set it, which
	 * it may not do from a fault.
	 */
	vm_flags_set(vma, VM_DONTEXPAND | VM_DONTDUMP | VM_MIXEDMAP);
	vm_flags_clear(vma, VM_MAYEXEC);
	if (populate)
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
 * The region's pages, all inserted now; nothing may fail after that.  A
 * writer's file counts the mapping in its wmap under its lock, so that a
 * revoke sees either no mapping or a counted one with its pages in.
 */
static int fdr_mmap_region(struct fdr_file *ff, struct fdr_region *region,
			   struct vm_area_struct *vma)
{
	struct fdr_wmap *wfresh;
	struct fdr_mm_map *fresh;
	int err;

	if (vma_pages(vma) > region->nr_pages - vma->vm_pgoff)
		return -EINVAL;
	fresh = kzalloc(sizeof(*fresh), GFP_KERNEL);
	if (!fresh)
		return -ENOMEM;
	if (!fdr_writer_mapping(ff, region))
		return fdr_mmap_insert(region, vma, fresh, true);

	wfresh = kzalloc(sizeof(*wfresh), GFP_KERNEL);
	if (!wfresh) {
		kfree(fresh);
		return -ENOMEM;
	}
	/*
	 * A writer's mapping is not populated here but by its faults
	 * (libfdr maps with MAP_POPULATE): this VMA is not yet in the
	 * file's i_mmap tree, so a revoke's zap would miss pages inserted
	 * now; a fault comes after the link and checks revoked under wlock.
	 */
	mutex_lock(&ff->wlock);
	if (ff->revoked) {
		kfree(fresh);
		err = -EPERM;
	} else {
		err = fdr_mmap_insert(region, vma, fresh, false);
	}
	if (!err)
		fdr_wmap_add_locked(ff, region, &wfresh);
	mutex_unlock(&ff->wlock);
	kfree(wfresh);
	return err;
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

	if (READ_ONCE(ff->revoked))
		return -EPERM;
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
		err = fdr_mmap_region(ff, region, vma);
	if (err) {
		fdr_region_put(region);
		return err;
	}
	fdr_session_get(dev);
	return 0;
}
