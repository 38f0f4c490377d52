// SPDX-License-Identifier: MIT
/*
 * layout_facts.c - read the facts a log is laid out from (layout_facts.h),
 * from the kernel's STATUS or from the control page, and refuse any that
 * would make fdrd index outside its mapping.
 */
#include "layout_facts.h"

#define PAGE_BYTES 4096u

/* A refusal says whose numbers did not fit: a bad STATUS is a kernel or
 * libfdr bug, a bad control page is someone's scribbling. */
#define REFUSE(trusted, what) \
	((trusted) ? "the kernel's geometry (STATUS) does not fit the mapping: " what \
		   : what)

/* The control page, each field read once: writers may change it under us. */
static const char *from_control(const struct fdr_control *ctl, size_t map_len,
				struct layout_facts *f)
{
	if (map_len < sizeof(*ctl))
		return "mapping smaller than the control header";
	if (ctl->magic != FDR_CONTROL_MAGIC)
		return "bad control magic";
	if (ctl->abi_version != FDR_ABI_VERSION)
		return "unsupported ABI version";
	f->buffer_size = ctl->buffer_size;
	f->control_size = ctl->control_size;
	f->nr_buffers = ctl->nr_buffers;
	f->descs_offset = ctl->descs_offset;
	f->generation = ctl->generation;
	f->flags = ctl->flags;
	f->tsc_hz = ctl->tsc_hz;
	f->finalize_reason = ctl->finalize_reason;
	f->finalize_signal = ctl->finalize_signal;
	f->finalize_pid = ctl->finalize_pid;
	f->finalize_tid = ctl->finalize_tid;
	f->finalize_fid = ctl->finalize_fid;
	f->finalize_duration_ns = ctl->finalize_duration_ns;
	return NULL;
}

/*
 * STATUS has no descs_offset: the ABI fixes it (Documentation/abi.md,
 * "The region and mmap"): the header, then one ring per CPU.  Computed in
 * 64 bits so that an absurd nr_cpus fails the checks instead of wrapping.
 */
static void from_status(const struct fdr_status *st, struct layout_facts *f)
{
	f->buffer_size = st->buffer_size;
	f->control_size = st->control_size;
	f->nr_buffers = st->nr_buffers;
	f->descs_offset = FDR_CONTROL_HEADER_SIZE +
			  (uint64_t)st->nr_cpus * FDR_CPU_RING_SIZE;
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

/* Descriptors inside the control area, buffers inside the mapping. */
static const char *check_fit(const struct layout_facts *f, size_t map_len,
			     int trusted)
{
	if (f->buffer_size == 0 || f->buffer_size % PAGE_BYTES)
		return REFUSE(trusted, "buffer_size is not a page multiple");
	if (f->control_size % PAGE_BYTES || f->control_size > map_len)
		return REFUSE(trusted, "control_size outside the mapping");
	if (f->descs_offset < sizeof(struct fdr_control) ||
	    f->descs_offset % FDR_BUFFER_DESC_SIZE ||
	    f->descs_offset > f->control_size ||
	    (uint64_t)f->nr_buffers * FDR_BUFFER_DESC_SIZE >
		    f->control_size - f->descs_offset)
		return REFUSE(trusted, "descriptors outside the control area");
	if (f->nr_buffers &&
	    f->buffer_size > (map_len - f->control_size) / f->nr_buffers)
		return REFUSE(trusted, "buffers outside the mapping");
	return NULL;
}

const char *layout_facts_read(const struct fdr_control *ctl, size_t map_len,
			      const struct fdr_status *trusted,
			      struct layout_facts *f)
{
	const char *bad = NULL;

	if (trusted)
		from_status(trusted, f);
	else
		bad = from_control(ctl, map_len, f);
	return bad ? bad : check_fit(f, map_len, trusted != NULL);
}
