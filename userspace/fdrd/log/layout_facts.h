/* SPDX-License-Identifier: MIT */
/*
 * layout_facts.h - the facts a log is laid out from: geometry, generation,
 * TSC flags and rate, the finalize trigger.  Where they come from is a
 * matter of trust:
 *
 *  - on the device, the kernel's STATUS (its private copy: any process
 *    that maps the region writable can scribble the control page, and a
 *    scribbled generation alone would make every buffer look stale);
 *  - on the embedded backend there is no trusted party: the control page
 *    is the only copy, so it is read as it is.
 *
 * Either way the facts are copied once and checked against the mapping's
 * length before any of them is used as an offset.
 */
#ifndef FDRD_LAYOUT_FACTS_H
#define FDRD_LAYOUT_FACTS_H

#include <stddef.h>
#include <stdint.h>

#include <linux/fdr.h>

struct layout_facts {
	uint64_t buffer_size;
	uint64_t control_size;
	uint64_t descs_offset;	/* 64 bits: computed from nr_cpus on the device */
	uint32_t nr_buffers;
	uint32_t generation;
	uint32_t flags;		/* FDR_CTL_* */
	uint64_t tsc_hz;
	uint32_t finalize_reason;
	uint32_t finalize_signal;
	int32_t finalize_pid;
	/* FDR_FINALIZE_TRIGGER: the thread, function and duration of the
	 * call that fired (0, 0, 0 by hand or for another reason) */
	int32_t finalize_tid;
	int32_t finalize_fid;
	uint64_t finalize_duration_ns;
};

/*
 * Fill *f from trusted (NULL: from the control page at ctl) and check that
 * the descriptors and buffers they describe lie inside the map_len bytes
 * mapped at ctl.  Returns NULL, or why they do not.
 */
const char *layout_facts_read(const struct fdr_control *ctl, size_t map_len,
			      const struct fdr_status *trusted,
			      struct layout_facts *f);

/*
 * The status to lay out from: st on the device, NULL on the embedded
 * backend, whose STATUS is only a copy of the control page.  The kernel
 * never sets FDR_CTL_EMBEDDED and keeps its flags private, so a device's
 * status cannot be made to look embedded; an embedded page scribbled to
 * look like a device yields a status that is again that page, no worse
 * than reading it, and checked against the mapping all the same.
 */
static inline const struct fdr_status *
layout_trusted_status(const struct fdr_status *st)
{
	return st && !(st->flags & FDR_CTL_EMBEDDED) ? st : NULL;
}

#endif /* FDRD_LAYOUT_FACTS_H */
