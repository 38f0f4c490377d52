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
#include <fdr_inline.h>	/* fdr__tsc(): the writers' clock, test hook included */
#include <fdr_size_limit.h>
#include "internal.h"

#define FDR_SHM_MODE	0660

__FDR_NO_INSTRUMENT void fdr__embedded_forget(struct fdr_ctl *ctl)
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
__FDR_NO_INSTRUMENT static int map_control(struct fdr_ctl *ctl, const struct stat *sb)
{
	struct fdr_region_view view;
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
	ret = fdr_region_view(&view, p, (size_t)sb->st_size, NULL);
	if (ret == 0 && !view.buffers)
		ret = -EBADMSG;
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
__FDR_NO_INSTRUMENT int fdr__embedded_refresh(struct fdr_ctl *ctl)
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

/* Every descriptor FREE, every ring cursor and per-CPU drop counter 0
 * (the rings' records_dropped are part of STATUS.records_dropped, reset
 * with it). */
__FDR_NO_INSTRUMENT static void init_descs(struct fdr_control *c,
				   const struct fdr_geometry *g)
{
	struct fdr_buffer_desc *d =
		(struct fdr_buffer_desc *)((char *)c + g->descs_offset);
	struct fdr_cpu_ring *r =
		(struct fdr_cpu_ring *)((char *)c + g->rings_offset);

	memset(r, 0, (size_t)g->nr_cpus * sizeof(*r));
	for (uint32_t i = 0; i < g->nr_buffers; i++) {
		memset(&d[i], 0, sizeof(d[i]));
		d[i].state = FDR_BUF_FREE;
		d[i].cpu = i / g->buffers_per_cpu;
		d[i].offset = g->control_size + (uint64_t)i * g->buffer_size;
	}
}

/* Geometry and identity of a fresh generation; state stays as it is. */
__FDR_NO_INSTRUMENT static void write_geometry(struct fdr_control *c,
				       const struct fdr_geometry *g,
				       uint32_t generation, uint32_t init_flags)
{
	c->magic = FDR_CONTROL_MAGIC;
	c->abi_version = FDR_ABI_VERSION;
	c->header_size = FDR_CONTROL_HEADER_SIZE;
	c->generation = generation ? generation : 1;
	c->flags = FDR_CTL_EMBEDDED | fdr__tsc_flags() |
		   (init_flags & FDR_INIT_NO_CRASH_FINALIZE ?
			    0 : FDR_CTL_CRASH_FINALIZE) |
		   (init_flags & FDR_INIT_STREAM ? FDR_CTL_STREAM : 0);
	c->tsc_hz = fdr__tsc_hz();
	c->buffer_size = g->buffer_size;
	c->nr_cpus = g->nr_cpus;
	c->buffers_per_cpu = g->buffers_per_cpu;
	c->nr_buffers = g->nr_buffers;
	c->rings_offset = g->rings_offset;
	c->descs_offset = g->descs_offset;
	c->control_size = g->control_size;
}

__FDR_NO_INSTRUMENT static void clear_run_fields(struct fdr_control *c)
{
	c->flush_state = FDR_FLUSH_NOT_FLUSHING;
	c->finalize_reason = FDR_FINALIZE_NONE;
	c->finalize_signal = 0;
	c->finalize_pid = 0;
	c->finalize_time_ns = 0;
	c->finalize_tid = 0;
	c->finalize_duration_ns = 0;
	c->finalize_fid = 0;
	c->next_seq = 0;
	c->buffers_acquired = 0;
	c->buffers_recycled = 0;
	c->records_dropped = 0;
	c->buffers_reclaimed = 0;
	c->triggers_fired = 0;
	c->triggers_refused = 0;
}

/* This INIT's trigger.  trigger_last_ns and trigger_not_before_tsc are
 * the holdoff's memory: kept across RESET and INIT, as the device keeps
 * them across its regions. */
__FDR_NO_INSTRUMENT static void write_trigger(struct fdr_control *c,
				      const struct fdr_init *cfg)
{
	c->trigger_ns = cfg->trigger_ns;
	c->trigger_fid = cfg->trigger_fid;
	c->trigger_holdoff_ms = cfg->trigger_holdoff_ms;
}

/* Build a complete object under a temporary name; returns its fd. */
__FDR_NO_INSTRUMENT static int build_object(struct fdr_ctl *ctl,
				    const struct fdr_geometry *g,
				    uint32_t generation, const struct fdr_init *cfg,
				    char *tmp, size_t tmplen)
{
	struct fdr_control *c;
	int fd, ret;

	/* Growing the object past ulimit -f would SIGXFSZ the program the
	 * region is for. */
	if (fdr__size_limit_check(g->map_size)) {
		snprintf(ctl->detail, sizeof(ctl->detail),
			 "the region's %llu bytes are more than the file size limit "
			 "(ulimit -f) allows: raise the limit, or ask for a smaller ring",
			 (unsigned long long)g->map_size);
		return -EFBIG;
	}
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
	write_geometry(c, g, generation, cfg->flags);
	clear_run_fields(c);
	write_trigger(c, cfg);
	if (ctl->ectl) {	/* the object this one replaces */
		c->trigger_last_ns = __atomic_load_n(&ctl->ectl->trigger_last_ns,
						     __ATOMIC_RELAXED);
		c->trigger_not_before_tsc = __atomic_load_n(
			&ctl->ectl->trigger_not_before_tsc, __ATOMIC_RELAXED);
	}
	init_descs(c, g);
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
__FDR_NO_INSTRUMENT int fdr__embedded_create(struct fdr_ctl *ctl,
				     const struct fdr_geometry *g,
				     uint32_t generation, const struct fdr_init *cfg)
{
	char tmp[FDR_NAME_MAX + 48], tmppath[FDR_NAME_MAX + 64];
	bool replace = ctl->fd >= 0;
	int fd = build_object(ctl, g, generation, cfg, tmp, sizeof(tmp));
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

/*
 * Re-INIT the open object in place: same geometry, next generation.  The
 * page is only written: its words may be anyone's (g is cfg's).
 */
__FDR_NO_INSTRUMENT int fdr__embedded_reinit(struct fdr_ctl *ctl,
				     const struct fdr_geometry *g,
				     const struct fdr_init *cfg)
{
	struct fdr_control *c = ctl->ectl;
	uint64_t data = g->map_size - g->control_size;

	/* Fresh zero pages, as the device hands out. */
	if (fallocate(ctl->fd, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE,
		      (off_t)g->control_size, (off_t)data) == 0)
		posix_fallocate(ctl->fd, (off_t)g->control_size, (off_t)data);
	write_geometry(c, g, c->generation + 1, cfg->flags);
	clear_run_fields(c);
	write_trigger(c, cfg);
	init_descs(c, g);
	atomic_store_explicit((_Atomic uint32_t *)&c->state,
			      FDR_STATE_INITIALIZED, memory_order_release);
	fdr__futex_wake_all(&c->state);
	return 0;
}

__FDR_NO_INSTRUMENT bool fdr__embedded_begin_finalize(struct fdr_control *c)
{
	uint32_t s = FDR_STATE_INITIALIZED;

	return __atomic_compare_exchange_n(&c->state, &s, FDR_STATE_FINALIZING,
					   false, __ATOMIC_ACQ_REL,
					   __ATOMIC_ACQUIRE);
}

__FDR_NO_INSTRUMENT static void finish_finalize(struct fdr_control *c)
{
	__atomic_store_n(&c->state, FDR_STATE_FINALIZED, __ATOMIC_RELEASE);
	fdr__futex_wake_all(&c->state);
}

/*
 * Inside the holdoff of the last trigger?  The control area is shared
 * with every writer: its values are read once, and a scribbled one can
 * only make this call refuse or accept wrongly, never fault.
 */
__FDR_NO_INSTRUMENT static bool held_off(const struct fdr_control *c, uint64_t now,
				 uint64_t *last_out)
{
	uint64_t last = __atomic_load_n(&c->trigger_last_ns, __ATOMIC_ACQUIRE);
	uint64_t holdoff = __atomic_load_n(&c->trigger_holdoff_ms,
					   __ATOMIC_RELAXED);

	if (last_out)
		*last_out = last;
	if (holdoff > FDR_TRIGGER_HOLDOFF_MAX_MS)
		holdoff = FDR_TRIGGER_HOLDOFF_MAX_MS;
	return last && holdoff && now >= last &&
	       now - last < holdoff * 1000000u;
}

__FDR_NO_INSTRUMENT int fdr__embedded_trigger(struct fdr_control *c,
				      const struct fdr_trigger *trig,
				      pid_t pid, pid_t tid)
{
	bool by_hand = trig->flags & FDR_TRIGGER_BY_HAND;
	uint64_t now = fdr__monotonic_ns(), last, hz, holdoff;

	if (__atomic_load_n(&c->state, __ATOMIC_ACQUIRE) != FDR_STATE_INITIALIZED)
		return -EBUSY;
	if (!by_hand && held_off(c, now, &last)) {
		__atomic_fetch_add(&c->triggers_refused, 1, __ATOMIC_RELAXED);
		return -EAGAIN;
	}
	if (!fdr__embedded_begin_finalize(c))
		return -EBUSY;
	/*
	 * We own the transition now.  A trigger of the previous generation
	 * may have fired (and RESET, INIT followed) between our holdoff
	 * check and the CAS: check again, and give the region back if so.
	 */
	if (!by_hand && __atomic_load_n(&c->trigger_last_ns, __ATOMIC_ACQUIRE) !=
				last && held_off(c, now, NULL)) {
		__atomic_fetch_add(&c->triggers_refused, 1, __ATOMIC_RELAXED);
		__atomic_store_n(&c->state, FDR_STATE_INITIALIZED,
				 __ATOMIC_RELEASE);
		fdr__futex_wake_all(&c->state);
		return -EAGAIN;
	}
	c->finalize_reason = FDR_FINALIZE_TRIGGER;
	c->finalize_signal = 0;
	c->finalize_pid = pid;
	c->finalize_tid = tid;
	c->finalize_time_ns = now;
	c->finalize_duration_ns = by_hand ? 0 : trig->duration_ns;
	c->finalize_fid = by_hand ? 0 : trig->fid;
	holdoff = __atomic_load_n(&c->trigger_holdoff_ms, __ATOMIC_RELAXED);
	if (holdoff > FDR_TRIGGER_HOLDOFF_MAX_MS)
		holdoff = FDR_TRIGGER_HOLDOFF_MAX_MS;
	hz = __atomic_load_n(&c->tsc_hz, __ATOMIC_RELAXED);
	__atomic_store_n(&c->trigger_not_before_tsc,
			 holdoff && hz ? fdr__tsc() + (uint64_t)((double)holdoff *
							 (double)hz / 1e3) : 0,
			 __ATOMIC_RELAXED);
	__atomic_store_n(&c->trigger_last_ns, now, __ATOMIC_RELEASE);
	__atomic_fetch_add(&c->triggers_fired, 1, __ATOMIC_RELAXED);
	finish_finalize(c);
	return 0;
}
