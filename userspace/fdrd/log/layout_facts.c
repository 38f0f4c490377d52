// SPDX-License-Identifier: MIT
/*
 * layout_facts.c - read the facts a log is laid out from (layout_facts.h),
 * from the kernel's STATUS or from the control page.  Where the
 * descriptors and buffers lie is libfdr's fdr_region_view(), the one
 * check of a mapped region: it refuses any geometry that would make fdrd
 * index outside its mapping.
 */
#include <stdio.h>

#include <fdr.h>

#include "layout_facts.h"

/* A refusal says whose numbers did not fit: a bad STATUS is a kernel or
 * libfdr bug, a bad control page is someone's scribbling. */
#define STATUS_MISFIT "the kernel's geometry (STATUS) does not fit the mapping: "

/* The control page's other facts, each read once: writers may change it
 * under us. */
static void from_control(const struct fdr_control *ctl, struct layout_facts *f)
{
	f->generation = ctl->generation;
	f->flags = ctl->flags;
	f->tsc_hz = ctl->tsc_hz;
	f->finalize_reason = ctl->finalize_reason;
	f->finalize_signal = ctl->finalize_signal;
	f->finalize_pid = ctl->finalize_pid;
	f->finalize_tid = ctl->finalize_tid;
	f->finalize_fid = ctl->finalize_fid;
	f->finalize_duration_ns = ctl->finalize_duration_ns;
}

static void from_status(const struct fdr_status *st, struct layout_facts *f)
{
	f->generation = st->generation;
	f->flags = st->flags;
	f->tsc_hz = st->tsc_hz;
	f->finalize_reason = st->finalize_reason;
	f->finalize_signal = st->finalize_signal;
	f->finalize_pid = st->finalize_pid;
	/* since FDR_STATUS_SIZE_VER2: an older kernel leaves them 0, and
	 * never finalizes with FDR_FINALIZE_TRIGGER */
	f->finalize_tid = st->finalize_tid;
	f->finalize_fid = st->finalize_fid;
	f->finalize_duration_ns = st->finalize_duration_ns;
}

/* Descriptors and buffers, all inside the mapping, or why not. */
static const char *geometry(const struct fdr_control *ctl, size_t map_len,
			    const struct fdr_status *trusted,
			    struct layout_facts *f)
{
	struct fdr_region_view v;

	if (fdr_region_view(&v, ctl, map_len, trusted) == 0 && !v.buffers)
		v.why = "buffers outside the mapping";
	if (v.why)
		return v.why;
	f->buffer_size = v.buffer_size;
	f->control_size = v.control_size;
	f->nr_buffers = v.nr_buffers;
	f->descs_offset = v.descs_offset;
	return NULL;
}

const char *layout_facts_read(const struct fdr_control *ctl, size_t map_len,
			      const struct fdr_status *trusted,
			      struct layout_facts *f)
{
	static __thread char why[160];
	const char *bad = geometry(ctl, map_len, trusted, f);

	if (bad && trusted) {
		snprintf(why, sizeof(why), STATUS_MISFIT "%s", bad);
		return why;
	}
	if (bad)
		return bad;
	if (trusted)
		from_status(trusted, f);
	else
		from_control(ctl, f);
	return NULL;
}
