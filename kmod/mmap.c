// SPDX-License-Identifier: GPL-2.0
/*
 * mmap.c - mapping a region into a process.
 *
 * The pages are inserted with vm_insert_pages() at mmap time: recording
 * never faults into the module, and the VMA is a normal-page mapping (no
 * VM_IO / VM_PFNMAP) so gdb, O_DIRECT and io_uring can use it.  Each VMA
 * holds a region reference, which keeps the pages alive across RESET.
 */
#include <linux/mm.h>
#include "compat.h"
#include "fdr_dev.h"
#include "region.h"

static void fdr_vm_open(struct vm_area_struct *vma)
{
	fdr_region_get(vma->vm_private_data);
}

static void fdr_vm_close(struct vm_area_struct *vma)
{
	struct fdr_region *region = vma->vm_private_data;

	fdr_reclaim_on_unmap(region, vma);
	fdr_region_put(region);
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
 * MAP_SHARED only (a private copy would not be the recorder); offset and
 * length within the region; ENODEV while there is no region.  VM_MAYSHARE
 * is the MAP_SHARED bit: do_mmap() clears VM_SHARED for a read-only
 * shared mapping of an O_RDONLY file, which is how fdrd maps.
 */
int fdr_mmap(struct file *file, struct vm_area_struct *vma)
{
	struct fdr_file *ff = file->private_data;
	unsigned long npages = vma_pages(vma);
	struct fdr_region *region;
	unsigned long left;
	int err;

	if (!(vma->vm_flags & VM_MAYSHARE))
		return -EINVAL;
	/* Trace data is never code: refuse it, as a noexec mount does. */
	if (vma->vm_flags & VM_EXEC)
		return -EPERM;
	region = fdr_current_region(ff->dev);
	if (!region)
		return -ENODEV;

	err = -EINVAL;
	if (vma->vm_pgoff >= region->nr_pages ||
	    npages > region->nr_pages - vma->vm_pgoff)
		goto out_put;

	/*
	 * No mremap growth, no later mprotect(PROT_EXEC); no core-dump copy
	 * of a machine-wide trace that other processes write (a live
	 * debugger still reads it).
	 */
	vm_flags_set(vma, VM_DONTEXPAND | VM_DONTDUMP);
	vm_flags_clear(vma, VM_MAYEXEC);
	left = npages;
	err = vm_insert_pages(vma, vma->vm_start,
			      region->pages + vma->vm_pgoff, &left);
	if (err)
		goto out_put;

	vma->vm_private_data = region;
	vma->vm_ops = &fdr_vm_ops;
	return 0;

out_put:
	fdr_region_put(region);
	return err;
}
