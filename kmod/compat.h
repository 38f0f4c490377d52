/* SPDX-License-Identifier: GPL-2.0 */
/*
 * compat.h - shims for kernel APIs that moved between the kernels fdr.ko
 * is built against (Debian bookworm's 6.1 and its 6.12 backport).
 */
#ifndef FDR_COMPAT_H
#define FDR_COMPAT_H

#include <linux/version.h>
#include <linux/mm.h>

#if LINUX_VERSION_CODE < KERNEL_VERSION(6, 3, 0)
/* 6.3 made vm_flags read-only and added accessors that take the lock. */
static inline void vm_flags_set(struct vm_area_struct *vma, vm_flags_t flags)
{
	vma->vm_flags |= flags;
}

static inline void vm_flags_clear(struct vm_area_struct *vma,
				  vm_flags_t flags)
{
	vma->vm_flags &= ~flags;
}
#endif

#endif /* FDR_COMPAT_H */
