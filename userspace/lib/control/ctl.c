// SPDX-License-Identifier: MIT
/*
 * ctl.c - the control API: one handle, two backends (device, embedded).
 * Every call records its errno in the handle so fdr_ctl_strerror() can
 * name the cause.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include "internal.h"

__FDR_NO_INSTRUMENT int fdr__ctl_note(struct fdr_ctl *ctl, int ret)
{
	if (ctl)
		ctl->last_errno = ret < 0 ? -ret : 0;
	return ret;
}

FDR_API int fdr_ctl_open(struct fdr_ctl **out, const char *target)
{
	struct fdr_ctl *ctl = calloc(1, sizeof(*ctl));
	int ret;

	*out = NULL;
	if (!ctl)
		return -ENOMEM;
	ctl->fd = -1;
	ret = fdr__target_parse(&ctl->target, target);
	if (ret == 0)
		ret = fdr__target_allowed(&ctl->target, ctl->detail,
					  sizeof(ctl->detail));
	if (ret == 0) {
		ctl->ops = ctl->target.kind == FDR_TARGET_EMBEDDED ?
				   &fdr__embedded_ops : &fdr__device_ops;
		ret = ctl->ops->open(ctl);
	}
	if (ret < 0) {
		/* keep the handle's words for fdr_ctl_strerror of the failure */
		ctl->last_errno = -ret;
		*out = ctl;
		ctl->ops = NULL;
		return ret;
	}
	*out = ctl;
	return 0;
}

FDR_API void fdr_ctl_close(struct fdr_ctl *ctl)
{
	if (!ctl)
		return;
	fdr_ctl_unmap(ctl);
	/* an embedded handle also maps the object's control area: without
	 * this, each open and close left that mapping behind */
	if (ctl->target.kind == FDR_TARGET_EMBEDDED)
		fdr__embedded_forget(ctl);
	else if (ctl->fd >= 0)
		close(ctl->fd);
	free(ctl);
}

__FDR_NO_INSTRUMENT void fdr__ctl_unmap_region(struct fdr_ctl *ctl)
{
	if (ctl && ctl->map) {
		munmap(ctl->map, ctl->map_len);
		ctl->map = NULL;
		ctl->map_len = 0;
		ctl->map_writable = false;
	}
}

/* A handle whose open failed is kept only for its error message. */
#define CALL(ctl, op, ...)                                          \
	((ctl) && (ctl)->ops ? fdr__ctl_note((ctl), (ctl)->ops->op(__VA_ARGS__)) \
			     : -EBADF)

FDR_API int fdr_ctl_init(struct fdr_ctl *ctl, const struct fdr_init *cfg)
{
	if (!cfg)
		return fdr__ctl_note(ctl, -EINVAL);
	if (ctl && cfg->size >= FDR_INIT_SIZE_VER0)
		ctl->init_flags = cfg->flags;
	return CALL(ctl, init, ctl, cfg);
}

FDR_API int fdr_ctl_finalize(struct fdr_ctl *ctl)
{
	return CALL(ctl, finalize, ctl);
}

FDR_API int fdr_ctl_flush_begin(struct fdr_ctl *ctl)
{
	return CALL(ctl, flush_begin, ctl);
}

FDR_API int fdr_ctl_flush_done(struct fdr_ctl *ctl)
{
	return CALL(ctl, flush_done, ctl);
}

FDR_API int fdr_ctl_flush_abort(struct fdr_ctl *ctl)
{
	return CALL(ctl, flush_abort, ctl);
}

FDR_API int fdr_ctl_flush_force_abort(struct fdr_ctl *ctl)
{
	return CALL(ctl, flush_force_abort, ctl);
}

FDR_API int fdr_ctl_reset(struct fdr_ctl *ctl)
{
	return CALL(ctl, reset, ctl);
}

/* copy_struct_from_user's rules, as the kernel reads it; NULL: by hand. */
__FDR_NO_INSTRUMENT static int trigger_arg(const struct fdr_trigger *trig,
				   struct fdr_trigger *out)
{
	int ret;

	if (!trig) {
		memset(out, 0, sizeof(*out));
		out->size = sizeof(*out);
		out->flags = FDR_TRIGGER_BY_HAND;
		return 0;
	}
	ret = fdr__copy_sized(out, sizeof(*out), trig, trig->size,
			      FDR_TRIGGER_SIZE_VER0);
	if (ret)
		return ret;
	out->size = sizeof(*out);
	if (out->flags & ~FDR_TRIGGER_FLAGS_ALL || out->reserved)
		return -EINVAL;
	return 0;
}

FDR_API int fdr_ctl_trigger(struct fdr_ctl *ctl, const struct fdr_trigger *trig)
{
	struct fdr_trigger t;
	int ret = trigger_arg(trig, &t);

	if (ret < 0)
		return fdr__ctl_note(ctl, ret);
	return CALL(ctl, trigger, ctl, &t);
}

FDR_API int fdr_ctl_status(struct fdr_ctl *ctl, struct fdr_status *st)
{
	if (!st)
		return fdr__ctl_note(ctl, -EINVAL);
	return CALL(ctl, status, ctl, st);
}

FDR_API int fdr_ctl_wait(struct fdr_ctl *ctl, uint32_t state,
			 uint32_t flush_state, int timeout_ms)
{
	return CALL(ctl, wait, ctl, state, flush_state, timeout_ms);
}

FDR_API int fdr_ctl_map(struct fdr_ctl *ctl,
			const struct fdr_control **ctl_area, size_t *len)
{
	void *addr;
	size_t n;
	int ret;

	if (!ctl || !ctl->ops)
		return -EBADF;
	fdr__ctl_unmap_region(ctl);
	ret = fdr__ctl_note(ctl, ctl->ops->map(ctl, PROT_READ, &addr, &n, NULL));
	if (ret < 0)
		return ret;
	ctl->map = addr;
	ctl->map_len = n;
	*ctl_area = addr;
	if (len)
		*len = n;
	return 0;
}

FDR_API int fdr_ctl_map_fd(struct fdr_ctl *ctl)
{
	if (!ctl || !ctl->ops || !ctl->map || ctl->fd < 0)
		return -EBADF;
	/* embedded: the mapping is the shm object's, from offset 0 */
	return ctl->ops == &fdr__embedded_ops ? ctl->fd : -EOPNOTSUPP;
}

/*
 * The scheduling area is a mapping of its own (another offset, always
 * read-only), kept apart from the region's so that mapping one does not
 * drop the other: fdrd holds both during a flush.
 */
FDR_API int fdr_ctl_map_sched(struct fdr_ctl *ctl, const void **area,
			      size_t *len)
{
	void *addr;
	size_t n;
	int ret;

	if (!ctl || !ctl->ops)
		return -EBADF;
	if (!area || !len)
		return fdr__ctl_note(ctl, -EINVAL);
	fdr_ctl_unmap_sched(ctl);
	ctl->detail[0] = 0;
	ret = fdr__ctl_note(ctl, ctl->ops->map_sched(ctl, &addr, &n));
	if (ret < 0)
		return ret;
	ctl->sched_map = addr;
	ctl->sched_len = n;
	*area = addr;
	*len = n;
	return 0;
}

FDR_API void fdr_ctl_unmap_sched(struct fdr_ctl *ctl)
{
	if (ctl && ctl->sched_map) {
		munmap(ctl->sched_map, ctl->sched_len);
		ctl->sched_map = NULL;
		ctl->sched_len = 0;
	}
}

FDR_API void fdr_ctl_unmap(struct fdr_ctl *ctl)
{
	fdr__ctl_unmap_region(ctl);
	fdr_ctl_unmap_sched(ctl);
}

__FDR_NO_INSTRUMENT int fdr__ctl_map_rw(struct fdr_ctl *ctl, void **addr, size_t *len,
			       struct fdr_region_view *view)
{
	if (!ctl || !ctl->ops)
		return -EBADF;
	return fdr__ctl_note(ctl, ctl->ops->map(ctl, PROT_READ | PROT_WRITE, addr, len, view));
}

__FDR_NO_INSTRUMENT pid_t fdr__ctl_owner_pid(struct fdr_ctl *ctl)
{
	return ctl && ctl->ops ? ctl->ops->owner_pid(ctl) : getpid();
}

__FDR_NO_INSTRUMENT int fdr__ctl_peek(struct fdr_ctl *ctl, uint32_t *state,
			      uint32_t *generation)
{
	if (!ctl || !ctl->ops)
		return -EBADF;
	return ctl->ops->peek(ctl, state, generation);
}

FDR_API int fdr_ctl_destroy_embedded(const char *target)
{
	struct fdr_target t;
	int ret = fdr__target_parse(&t, target);

	if (ret < 0)
		return ret;
	if (t.kind != FDR_TARGET_EMBEDDED)
		return -EINVAL;
	return shm_unlink(t.shm_name) ? -errno : 0;
}
