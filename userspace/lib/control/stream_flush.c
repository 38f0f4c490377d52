// SPDX-License-Identifier: MIT
/*
 * stream_flush.c - what the stream flusher needs beyond a reader's
 * mapping: write access to the descriptors, to hand each buffer it has
 * written back to the writers (uapi/linux/fdr.h, "Streaming mode").
 *
 * The descriptors are found through the view the map checked (the
 * kernel's STATUS on the device), never through the control page's own
 * offsets, which any writer can scribble.
 */
#include <errno.h>
#include <sys/mman.h>
#include "internal.h"

FDR_API int fdr_ctl_map_stream(struct fdr_ctl *ctl, struct fdr_control **ctl_area,
			       size_t *len)
{
	struct fdr_region_view view;
	void *addr;
	size_t n;
	int ret;

	if (!ctl || !ctl->ops)
		return -EBADF;
	if (!ctl_area)
		return fdr__ctl_note(ctl, -EINVAL);
	fdr__ctl_unmap_region(ctl);
	ret = fdr__ctl_map_rw(ctl, &addr, &n, &view);
	if (ret < 0)
		return ret;
	ctl->map = addr;
	ctl->map_len = n;
	ctl->map_view = view;
	ctl->map_writable = true;
	*ctl_area = addr;
	if (len)
		*len = n;
	return 0;
}

/*
 * RELEASED -> HELD (ours for a moment), extents 0, then FREE: a writer
 * takes only FREE buffers in a stream region and unpublishes their old
 * extents itself, so the zero store must come before FREE, and only on
 * a buffer nobody else can take meanwhile.
 */
FDR_API int fdr_ctl_stream_free(struct fdr_ctl *ctl, uint32_t index)
{
	struct fdr_buffer_desc *d;
	uint32_t s = FDR_BUF_RELEASED;

	if (!ctl || !ctl->map || !ctl->map_writable)
		return -EBADF;
	if (index >= ctl->map_view.nr_buffers)
		return -EINVAL;
	d = &ctl->map_view.descs[index];
	if (!__atomic_compare_exchange_n(&d->state, &s, FDR_BUF_HELD, false,
					 __ATOMIC_ACQUIRE, __ATOMIC_RELAXED))
		return -EAGAIN;
	__atomic_store_n(&d->extents, 0, __ATOMIC_RELAXED);
	__atomic_store_n(&d->state, FDR_BUF_FREE, __ATOMIC_RELEASE);
	return 0;
}
