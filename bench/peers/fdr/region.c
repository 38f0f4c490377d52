/* SPDX-License-Identifier: MIT */
#include <errno.h>
#include <stdio.h>

#include <fdr.h>

#include "region.h"

/* libfdr's embedded defaults, spelled out so the results can state them. */
#define BENCH_BUFFER_SIZE	(64u * 1024)
#define BENCH_BUFFERS_PER_CPU	8u

int bench_region_create(const char *target)
{
	struct fdr_init cfg = {
		.size = sizeof(cfg),
		.buffer_size = BENCH_BUFFER_SIZE,
		.buffers_per_cpu = BENCH_BUFFERS_PER_CPU,
	};
	struct fdr_ctl *ctl;
	int err;

	err = fdr_ctl_open(&ctl, target);
	if (err) {
		fprintf(stderr, "%s\n", fdr_ctl_strerror(NULL, "open", err));
		return -1;
	}
	err = fdr_ctl_init(ctl, &cfg);
	if (err)
		fprintf(stderr, "%s\n", fdr_ctl_strerror(ctl, "init", err));
	fdr_ctl_close(ctl);
	return err ? -1 : 0;
}

int bench_region_destroy(const char *target)
{
	struct fdr_status st = { .size = sizeof(st) };
	struct fdr_ctl *ctl;
	int err;

	err = fdr_ctl_open(&ctl, target);
	if (err) {
		fprintf(stderr, "%s\n", fdr_ctl_strerror(NULL, "open", err));
		return -1;
	}
	/* -EBUSY: the XRay mode's log_finalize got there first. */
	err = fdr_ctl_finalize(ctl);
	if (err && err != -EBUSY) {
		fprintf(stderr, "%s\n", fdr_ctl_strerror(ctl, "finalize", err));
		goto out;
	}
	err = fdr_ctl_status(ctl, &st);
	if (err) {
		fprintf(stderr, "%s\n", fdr_ctl_strerror(ctl, "status", err));
		goto out;
	}
	fprintf(stderr, "# fdr region %s: buffers_acquired=%llu recycled=%llu "
		"records_dropped=%llu\n", target,
		(unsigned long long)st.buffers_acquired,
		(unsigned long long)st.buffers_recycled,
		(unsigned long long)st.records_dropped);
	if (!st.buffers_acquired) {
		fprintf(stderr, "%s: nothing was recorded\n", target);
		err = -ENODATA;
	}
out:
	fdr_ctl_close(ctl);
	fdr_ctl_destroy_embedded(target);
	return err ? -1 : 0;
}
