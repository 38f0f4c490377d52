// SPDX-License-Identifier: MIT
/* region_setup.c - see region_setup.h. */
#include <errno.h>
#include <stdio.h>
#include "region_setup.h"

/* Whatever state it is in, step to UNINITIALIZED by legal transitions. */
static int to_uninitialized(struct fdr_ctl *ctl)
{
	struct fdr_status st = { .size = sizeof(st) };
	int ret = fdr_ctl_status(ctl, &st);

	if (ret < 0)
		return ret;
	if (st.state == FDR_STATE_INITIALIZED)
		fdr_ctl_finalize(ctl);
	/* ours, else (root) whichever file began it */
	if (st.flush_state == FDR_FLUSH_FLUSHING && fdr_ctl_flush_abort(ctl))
		fdr_ctl_flush_force_abort(ctl);
	fdr_ctl_reset(ctl);
	ret = fdr_ctl_status(ctl, &st);
	if (ret < 0)
		return ret;
	return st.state == FDR_STATE_UNINITIALIZED ? 0 : -EBUSY;
}

int region_fresh(struct fdr_ctl **ctl, const char *target,
		 uint64_t buffer_size, uint32_t buffers_per_cpu,
		 uint32_t init_flags)
{
	struct fdr_init cfg = { .size = sizeof(cfg), .flags = init_flags,
				.buffer_size = buffer_size,
				.buffers_per_cpu = buffers_per_cpu };
	const char *op = "open";
	int ret;

	if (target_is_embedded(target))
		fdr_ctl_destroy_embedded(target);
	ret = fdr_ctl_open(ctl, target);
	if (ret == 0 && !target_is_embedded(target)) {
		op = "reset";
		ret = to_uninitialized(*ctl);
	}
	if (ret == 0) {
		op = "init";
		ret = fdr_ctl_init(*ctl, &cfg);
	}
	if (ret < 0) {
		fprintf(stderr, "%s: %s\n", target, fdr_ctl_strerror(*ctl, op, ret));
		fdr_ctl_close(*ctl);
		*ctl = NULL;
	}
	return ret;
}

void region_teardown(struct fdr_ctl *ctl, const char *target)
{
	if (ctl && !target_is_embedded(target))
		to_uninitialized(ctl);
	fdr_ctl_close(ctl);
	if (target_is_embedded(target))
		fdr_ctl_destroy_embedded(target);
}
