// SPDX-License-Identifier: MIT
/*
 * ctl_device.c - the control backend for /dev/fdr: every transition is an
 * ioctl, the kernel enforces the rules.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include <linux/fdr_sched.h>
#include "internal.h"

__FDR_NO_INSTRUMENT static int dev_ioctl(struct fdr_ctl *ctl, unsigned long req,
				 void *arg)
{
	return ioctl(ctl->fd, req, arg) ? -errno : 0;
}

__FDR_NO_INSTRUMENT static int dev_status(struct fdr_ctl *ctl, struct fdr_status *st)
{
	memset(st, 0, sizeof(*st));
	st->size = sizeof(*st);
	return dev_ioctl(ctl, FDR_IOC_STATUS, st);
}

__FDR_NO_INSTRUMENT static int dev_open(struct fdr_ctl *ctl)
{
	struct fdr_status st;
	struct stat sb;
	int ret;

	ctl->fd = open(ctl->target.path, O_RDWR | O_CLOEXEC);
	if (ctl->fd < 0)
		return -errno;
	if (fstat(ctl->fd, &sb) == 0 && !S_ISCHR(sb.st_mode)) {
		snprintf(ctl->detail, sizeof(ctl->detail),
			 "not a character device");
		return -ENOTTY;
	}
	if (ctl->target.session[0]) {
		ret = fdr__session_attach(ctl);
		if (ret)
			return ret;
	}
	/* Prove it speaks our ABI before anyone relies on it. */
	ret = dev_status(ctl, &st);
	if (ret == -ENOTTY || ret == -EINVAL)
		snprintf(ctl->detail, sizeof(ctl->detail),
			 "does not answer FDR_IOC_STATUS");
	return ret;
}

/* The kernel checks the same; checked here first only to name the
 * field it would refuse (fdr_ctl_strerror). */
__FDR_NO_INSTRUMENT static int dev_init(struct fdr_ctl *ctl, const struct fdr_init *cfg)
{
	int ret = fdr__init_cfg_check(cfg, NULL, ctl->detail,
				      sizeof(ctl->detail));

	if (ret < 0)
		return ret;
	return dev_ioctl(ctl, FDR_IOC_INIT, (void *)cfg);
}

__FDR_NO_INSTRUMENT static int dev_trigger(struct fdr_ctl *ctl,
				   const struct fdr_trigger *trig)
{
	return dev_ioctl(ctl, FDR_IOC_TRIGGER, (void *)trig);
}

__FDR_NO_INSTRUMENT static int dev_finalize(struct fdr_ctl *ctl)
{
	return dev_ioctl(ctl, FDR_IOC_FINALIZE, NULL);
}

__FDR_NO_INSTRUMENT static int dev_flush_begin(struct fdr_ctl *ctl)
{
	return dev_ioctl(ctl, FDR_IOC_FLUSH_BEGIN, NULL);
}

__FDR_NO_INSTRUMENT static int dev_flush_done(struct fdr_ctl *ctl)
{
	return dev_ioctl(ctl, FDR_IOC_FLUSH_DONE, NULL);
}

__FDR_NO_INSTRUMENT static int dev_flush_abort(struct fdr_ctl *ctl)
{
	return dev_ioctl(ctl, FDR_IOC_FLUSH_ABORT, NULL);
}

__FDR_NO_INSTRUMENT static int dev_reset(struct fdr_ctl *ctl)
{
	return dev_ioctl(ctl, FDR_IOC_RESET, NULL);
}

__FDR_NO_INSTRUMENT static int64_t remaining_ms(uint64_t deadline_ns)
{
	uint64_t now = fdr__monotonic_ns();

	return now >= deadline_ns ? 0 : (int64_t)((deadline_ns - now) / 1000000);
}

/*
 * POLLPRI means "changed since this file's last STATUS" (POLLIN stays
 * ready while a flush is wanted, so it is not asked for).  A wakeup is
 * only a hint: STATUS decides, and a hint that changed nothing is
 * followed by a short nap instead of a busy loop.
 */
__FDR_NO_INSTRUMENT static int dev_wait(struct fdr_ctl *ctl, uint32_t state,
				uint32_t flush_state, int timeout_ms)
{
	uint64_t deadline = timeout_ms < 0 ? UINT64_MAX :
			    fdr__monotonic_ns() + (uint64_t)timeout_ms * 1000000;

	for (;;) {
		struct pollfd pfd = { .fd = ctl->fd, .events = POLLPRI };
		struct fdr_status st;
		int slice = 1000, ret = dev_status(ctl, &st);

		if (ret < 0)
			return ret;
		if (st.state != state || st.flush_state != flush_state)
			return 0;
		if (timeout_ms >= 0) {
			int64_t left = remaining_ms(deadline);

			if (left == 0)
				return -ETIMEDOUT;
			if (left < slice)
				slice = (int)left;
		}
		ret = poll(&pfd, 1, slice);
		if (ret < 0 && errno == EINTR)
			return -EINTR;
		if (ret > 0) {
			struct timespec nap = { 0, 10 * 1000 * 1000 };

			if (nanosleep(&nap, NULL) && errno == EINTR)
				return -EINTR;
		}
	}
}

__FDR_NO_INSTRUMENT static int dev_peek(struct fdr_ctl *ctl, uint32_t *state,
				uint32_t *generation)
{
	struct fdr_status st;
	int ret = dev_status(ctl, &st);

	*state = st.state;
	*generation = st.generation;
	return ret;
}

/*
 * A writer indexes the region with the kernel's geometry (STATUS), never
 * the page's; still, a page that is unsound or says otherwise has been
 * scribbled on, and recording into such a region is refused.  A reader
 * (fdrd) lays its log out from STATUS, so a scribbled page must not stop
 * it from mapping what the kernel still holds.
 */
__FDR_NO_INSTRUMENT static int check_page(struct fdr_ctl *ctl,
				  const struct fdr_control *c,
				  const struct fdr_status *st, int prot,
				  struct fdr_region_view *view)
{
	struct fdr_region_view kernel, page;
	int ret;

	if (!(prot & PROT_WRITE))
		return 0;
	ret = fdr_region_view(&kernel, c, st->map_size, st);
	if (ret == 0)
		ret = fdr_region_view(&page, c, st->map_size, NULL);
	if (ret == 0 && !fdr__view_same_geometry(&page, &kernel))
		ret = -EBADMSG;
	if (ret == 0 && view)
		*view = kernel;
	if (ret == -EBADMSG)
		snprintf(ctl->detail, sizeof(ctl->detail),
			 "corrupt control area (its geometry is not the kernel's: overwritten by a process that maps it)");
	return ret;
}

__FDR_NO_INSTRUMENT static int dev_map(struct fdr_ctl *ctl, int prot, void **addr,
			       size_t *len, struct fdr_region_view *view)
{
	for (int attempt = 0; attempt < 3; attempt++) {
		struct fdr_status st, after;
		void *p;
		int ret = dev_status(ctl, &st);

		if (ret < 0)
			return ret;
		if (st.state == FDR_STATE_UNINITIALIZED || st.map_size == 0)
			return -ENODATA;
		p = mmap(NULL, st.map_size, prot, MAP_SHARED | MAP_POPULATE,
			 ctl->fd, 0);
		/* A RESET between STATUS and mmap (fdrd --auto-reset after a
		 * flush): ask again; no region now is -ENODATA, which
		 * fdr_attach waits out until the next INIT. */
		if (p == MAP_FAILED && errno == ENODEV)
			continue;
		if (p == MAP_FAILED)
			return -errno;
		/* A RESET + INIT between STATUS and mmap: map again. */
		ret = dev_status(ctl, &after);
		if (ret == 0 && (after.generation != st.generation ||
				 after.map_size != st.map_size)) {
			munmap(p, st.map_size);
			continue;
		}
		if (ret == 0)
			ret = check_page(ctl, p, &st, prot, view);
		if (ret == 0) {
			*addr = p;
			*len = st.map_size;
			return 0;
		}
		munmap(p, st.map_size);
		return ret;
	}
	return -EAGAIN;
}

/* -ENODATA with the reason in detail when the region has no area. */
__FDR_NO_INSTRUMENT static int sched_present(struct fdr_ctl *ctl,
				     const struct fdr_status *st)
{
	if (st->state == FDR_STATE_UNINITIALIZED) {
		snprintf(ctl->detail, sizeof(ctl->detail),
			 "the recorder is UNINITIALIZED (no region; run 'fdrctl init')");
		return -ENODATA;
	}
	if (!(st->flags & FDR_CTL_SCHED) || st->sched_size == 0) {
		snprintf(ctl->detail, sizeof(ctl->detail),
			 "the region records no scheduling (initialized with --no-sched, or an fdr.ko without scheduling records)");
		return -ENODATA;
	}
	return 0;
}

/*
 * The kernel's offset and length, but a kernel bug must not become a
 * mapping of the buffers or an overflowing length: the area lies past
 * the region, page aligned, and holds at least its header.
 */
__FDR_NO_INSTRUMENT static int sched_geometry_ok(struct fdr_ctl *ctl,
					 const struct fdr_status *st)
{
	uint64_t end;

	if (st->sched_offset % fdr__page_size() == 0 &&
	    st->sched_offset >= st->map_size &&
	    st->sched_size >= sizeof(struct fdr_sched_area) &&
	    st->sched_size <= SIZE_MAX && st->sched_offset <= INT64_MAX &&
	    !__builtin_add_overflow(st->sched_offset, st->sched_size, &end))
		return 0;
	snprintf(ctl->detail, sizeof(ctl->detail),
		 "malformed scheduling area in STATUS (offset %llu, %llu bytes; the region is %llu bytes)",
		 (unsigned long long)st->sched_offset,
		 (unsigned long long)st->sched_size,
		 (unsigned long long)st->map_size);
	return -EBADMSG;
}

__FDR_NO_INSTRUMENT static int dev_map_sched(struct fdr_ctl *ctl, void **addr,
				     size_t *len)
{
	for (int attempt = 0; attempt < 3; attempt++) {
		struct fdr_status st, after;
		void *p;
		int ret = dev_status(ctl, &st);

		if (ret == 0)
			ret = sched_present(ctl, &st);
		if (ret == 0)
			ret = sched_geometry_ok(ctl, &st);
		if (ret < 0)
			return ret;
		p = mmap(NULL, st.sched_size, PROT_READ, MAP_SHARED, ctl->fd,
			 (off_t)st.sched_offset);
		if (p == MAP_FAILED)
			return -errno;
		/* A RESET + INIT between STATUS and mmap: map again. */
		ret = dev_status(ctl, &after);
		if (ret == 0 && (after.generation != st.generation ||
				 after.sched_offset != st.sched_offset ||
				 after.sched_size != st.sched_size)) {
			munmap(p, st.sched_size);
			continue;
		}
		if (ret < 0) {
			munmap(p, st.sched_size);
			return ret;
		}
		*addr = p;
		*len = st.sched_size;
		return 0;
	}
	return -EAGAIN;
}

/* Any file's flush; the kernel wants CAP_SYS_ADMIN for it. */
__FDR_NO_INSTRUMENT static int dev_flush_force_abort(struct fdr_ctl *ctl)
{
	return dev_ioctl(ctl, FDR_IOC_FLUSH_FORCE_ABORT, NULL);
}

/*
 * The kernel numbers a region's writers in one pid namespace (ours may
 * not be it); a kernel without the field says 0, and then getpid().
 */
__FDR_NO_INSTRUMENT static pid_t dev_owner_pid(struct fdr_ctl *ctl)
{
	struct fdr_status st;

	if (dev_status(ctl, &st) == 0 && st.owner_pid)
		return st.owner_pid;
	return getpid();
}

const struct fdr_ctl_ops fdr__device_ops = {
	.open = dev_open,
	.init = dev_init,
	.finalize = dev_finalize,
	.flush_begin = dev_flush_begin,
	.flush_done = dev_flush_done,
	.flush_abort = dev_flush_abort,
	.flush_force_abort = dev_flush_force_abort,
	.reset = dev_reset,
	.trigger = dev_trigger,
	.status = dev_status,
	.wait = dev_wait,
	.peek = dev_peek,
	.map = dev_map,
	.owner_pid = dev_owner_pid,
	.map_sched = dev_map_sched,
};
