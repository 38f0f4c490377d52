// SPDX-License-Identifier: MIT
/*
 * embedded_region.c - the shared-memory object /dev/shm/fdr-NAME that
 * stands in for the device's region: same layout, same state word.
 *
 * A new object is built under a temporary name and linked into place only
 * when complete, so nobody ever maps a half-written control area.  A
 * control handle follows the name: when another controller replaced the
 * object (re-INIT with a different geometry), the next call reopens it.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include "internal.h"

#define FDR_SHM_MODE	0660

FDR_NOINSTR void fdr__embedded_forget(struct fdr_ctl *ctl)
{
	if (ctl->ectl)
		munmap(ctl->ectl, ctl->ectl_len);
	if (ctl->fd >= 0)
		close(ctl->fd);
	ctl->ectl = NULL;
	ctl->ectl_len = 0;
	ctl->fd = -1;
	ctl->shm_ino = 0;
	ctl->shm_size = 0;
}

/* Map the control area of the open object, after checking its header. */
FDR_NOINSTR static int map_control(struct fdr_ctl *ctl, const struct stat *sb)
{
	struct fdr_control head;
	void *p;
	int ret;

	if ((size_t)sb->st_size < sizeof(head) ||
	    pread(ctl->fd, &head, sizeof(head), 0) != sizeof(head)) {
		snprintf(ctl->detail, sizeof(ctl->detail),
			 "%s is too small to be an fdr region", ctl->target.path);
		return -EBADMSG;
	}
	if (head.magic != FDR_CONTROL_MAGIC || head.control_size == 0 ||
	    head.control_size > (uint64_t)sb->st_size) {
		snprintf(ctl->detail, sizeof(ctl->detail),
			 "%s is not an fdr region (bad magic or size)",
			 ctl->target.path);
		return -EBADMSG;
	}
	p = mmap(NULL, head.control_size, PROT_READ | PROT_WRITE, MAP_SHARED,
		 ctl->fd, 0);
	if (p == MAP_FAILED)
		return -errno;
	ctl->ectl = p;
	ctl->ectl_len = head.control_size;
	ret = fdr__control_validate(p, (size_t)sb->st_size, NULL);
	if (ret < 0)
		snprintf(ctl->detail, sizeof(ctl->detail),
			 "%s has an inconsistent control area",
			 ctl->target.path);
	return ret;
}

/*
 * Make ctl->fd/ectl refer to the object that currently has the name.
 * -ENOENT when there is none (not an error for INIT).
 */
FDR_NOINSTR int fdr__embedded_refresh(struct fdr_ctl *ctl)
{
	struct stat sb;
	int ret;

	if (stat(ctl->target.path, &sb) < 0) {
		int err = errno;

		fdr__embedded_forget(ctl);
		return -err;
	}
	if (ctl->fd >= 0 && sb.st_ino == ctl->shm_ino &&
	    sb.st_dev == ctl->shm_dev)
		return 0;
	fdr__embedded_forget(ctl);
	ctl->fd = shm_open(ctl->target.shm_name, O_RDWR | O_CLOEXEC, 0);
	if (ctl->fd < 0)
		return -errno;
	if (fstat(ctl->fd, &sb) < 0)
		return -errno;
	ctl->shm_dev = sb.st_dev;
	ctl->shm_ino = sb.st_ino;
	ctl->shm_size = (uint64_t)sb.st_size;
	ret = map_control(ctl, &sb);
	if (ret < 0)
		fdr__embedded_forget(ctl);
	return ret;
}

FDR_NOINSTR static void init_descs(struct fdr_control *c)
{
	struct fdr_buffer_desc *d = fdr__descs(c);
	struct fdr_cpu_ring *r = fdr__rings(c);

	memset(r, 0, (size_t)c->nr_cpus * sizeof(*r));
	for (uint32_t i = 0; i < c->nr_buffers; i++) {
		memset(&d[i], 0, sizeof(d[i]));
		d[i].state = FDR_BUF_FREE;
		d[i].cpu = i / c->buffers_per_cpu;
		d[i].offset = c->control_size + (uint64_t)i * c->buffer_size;
	}
}

/* Geometry and identity of a fresh generation; state stays as it is. */
FDR_NOINSTR static void write_geometry(struct fdr_control *c,
				       const struct fdr_geometry *g,
				       uint32_t generation, uint32_t init_flags)
{
	c->magic = FDR_CONTROL_MAGIC;
	c->abi_version = FDR_ABI_VERSION;
	c->header_size = FDR_CONTROL_HEADER_SIZE;
	c->generation = generation ? generation : 1;
	c->flags = FDR_CTL_EMBEDDED | fdr__tsc_flags() |
		   (init_flags & FDR_INIT_NO_CRASH_FINALIZE ?
			    0 : FDR_CTL_CRASH_FINALIZE);
	c->tsc_hz = fdr__tsc_hz();
	c->buffer_size = g->buffer_size;
	c->nr_cpus = g->nr_cpus;
	c->buffers_per_cpu = g->buffers_per_cpu;
	c->nr_buffers = g->nr_buffers;
	c->rings_offset = g->rings_offset;
	c->descs_offset = g->descs_offset;
	c->control_size = g->control_size;
}

FDR_NOINSTR static void clear_run_fields(struct fdr_control *c)
{
	c->flush_state = FDR_FLUSH_NOT_FLUSHING;
	c->finalize_reason = FDR_FINALIZE_NONE;
	c->finalize_signal = 0;
	c->finalize_pid = 0;
	c->finalize_time_ns = 0;
	c->next_seq = 0;
	c->buffers_acquired = 0;
	c->buffers_recycled = 0;
	c->records_dropped = 0;
	c->buffers_reclaimed = 0;
}

/* Build a complete object under a temporary name; returns its fd. */
FDR_NOINSTR static int build_object(struct fdr_ctl *ctl,
				    const struct fdr_geometry *g,
				    uint32_t generation, uint32_t init_flags,
				    char *tmp, size_t tmplen)
{
	struct fdr_control *c;
	int fd, ret;

	snprintf(tmp, tmplen, "%s.tmp.%d", ctl->target.shm_name, getpid());
	fd = shm_open(tmp, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, FDR_SHM_MODE);
	if (fd < 0)
		return -errno;
	/* Reserve the memory now: a full /dev/shm must fail INIT, not SIGBUS
	 * a writer later. */
	ret = posix_fallocate(fd, 0, (off_t)g->map_size);
	if (ret) {
		snprintf(ctl->detail, sizeof(ctl->detail),
			 "cannot reserve %llu bytes in %s",
			 (unsigned long long)g->map_size, FDR_SHM_DIR);
		goto fail;
	}
	c = mmap(NULL, g->control_size, PROT_READ | PROT_WRITE, MAP_SHARED, fd,
		 0);
	if (c == MAP_FAILED) {
		ret = errno;
		goto fail;
	}
	write_geometry(c, g, generation, init_flags);
	clear_run_fields(c);
	init_descs(c);
	c->state = FDR_STATE_INITIALIZED;
	munmap(c, g->control_size);
	return fd;
fail:
	close(fd);
	shm_unlink(tmp);
	return -ret;
}

/*
 * Publish a new object under the region's name.  With no object there
 * yet, link() refuses to clobber one a racing INIT just made.
 */
FDR_NOINSTR int fdr__embedded_create(struct fdr_ctl *ctl,
				     const struct fdr_geometry *g,
				     uint32_t generation, uint32_t init_flags)
{
	char tmp[FDR_NAME_MAX + 48], tmppath[FDR_NAME_MAX + 64];
	bool replace = ctl->fd >= 0;
	int fd = build_object(ctl, g, generation, init_flags, tmp, sizeof(tmp));
	int ret = 0;

	if (fd < 0)
		return fd;
	snprintf(tmppath, sizeof(tmppath), "%s%s", FDR_SHM_DIR, tmp);
	if (replace ? rename(tmppath, ctl->target.path) :
		      link(tmppath, ctl->target.path))
		ret = errno == EEXIST ? -EBUSY : -errno;
	if (!replace || ret)
		unlink(tmppath);
	close(fd);
	if (ret == 0) {
		/* Waiters on the old object learn that it was superseded. */
		if (ctl->ectl)
			fdr__futex_wake_all(&ctl->ectl->state);
		ret = fdr__embedded_refresh(ctl);
	}
	return ret;
}

/* Re-INIT the open object in place: same geometry, next generation. */
FDR_NOINSTR int fdr__embedded_reinit(struct fdr_ctl *ctl, uint32_t init_flags)
{
	struct fdr_control *c = ctl->ectl;
	struct fdr_geometry g;
	uint64_t data = c->nr_buffers * c->buffer_size;

	fdr__geometry_compute(&g, c->buffer_size, c->buffers_per_cpu,
			      c->nr_cpus);
	/* Fresh zero pages, as the device hands out. */
	if (fallocate(ctl->fd, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE,
		      (off_t)c->control_size, (off_t)data) == 0)
		posix_fallocate(ctl->fd, (off_t)c->control_size, (off_t)data);
	write_geometry(c, &g, c->generation + 1, init_flags);
	clear_run_fields(c);
	init_descs(c);
	atomic_store_explicit((_Atomic uint32_t *)&c->state,
			      FDR_STATE_INITIALIZED, memory_order_release);
	fdr__futex_wake_all(&c->state);
	return 0;
}
