/* SPDX-License-Identifier: MIT */
/*
 * log_layout.h - what goes into a log, and where: a pure function of the
 * mapped region (control area + buffers) and, on the device, the kernel's
 * STATUS.  No I/O; the writer only copies the pieces described here to
 * their file offsets.
 */
#ifndef FDRD_LOG_LAYOUT_H
#define FDRD_LOG_LAYOUT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <linux/fdr.h>
#include <linux/fdr_log.h>

#include <fdr_buffer_check.h>

/* One buffer as it goes into the log: extents record, then data. */
struct log_buffer {
	uint32_t index;		/* descriptor index */
	int32_t owner_tid;
	int32_t owner_pid;
	uint32_t cpu;
	uint64_t seq;
	uint64_t extents;	/* as published by the writer (clamped) */
	uint64_t file_offset;	/* of the extents record */
	const uint8_t *data;	/* into the mapping */
	uint64_t span;		/* bytes mapped at data: the whole buffer,
				 * owner note included (owner_note.h) */
	uint64_t len;		/* bytes of data written (<= extents) */
	uint32_t state;		/* descriptor state at the snapshot */
	/* this buffer's walk, done earlier on the same bytes (log_precheck) */
	const struct fdr__buffer_check *known;
	/* a stream's record of a buffer already handed back: its owner
	 * note, copied and checked when it was written (owner_note_dup) */
	const uint8_t *note_copy;
	uint32_t note_len;
	struct fdr_metadata_record extents_record;	/* BufferExtents(len) */
};

/* A buffer that was cut or left out, and why (for the daemon's report). */
struct log_problem {
	uint32_t index;
	uint64_t seq;
	uint64_t extents;
	uint64_t kept;		/* bytes kept; 0 if dropped */
	uint64_t at;		/* offset of the first bad record */
	const char *what;
};

struct log_layout {
	struct fdr_log_header header;
	uint32_t generation;
	struct log_buffer *buffers;	/* in seq order */
	size_t nr_buffers;
	struct log_problem *problems;
	size_t nr_problems;
	size_t nr_empty;		/* extents 0: skipped */
	size_t nr_other_generation;	/* data of an older generation: skipped */
	size_t nr_clamped;		/* extents > buffer_size */
	uint64_t records;		/* records in the validated buffers */
	size_t nr_validated;		/* buffers[0..nr_validated) checked */
	bool changed;			/* validation cut or dropped a buffer */
	uint64_t file_size;		/* header + all buffers */
	uint32_t nr_descs;		/* descriptors in the region's geometry */
	/* the finalize trigger, copied for the side table */
	uint32_t finalize_reason;
	uint32_t finalize_signal;
	int32_t finalize_pid;
	int32_t finalize_tid;		/* FDR_FINALIZE_TRIGGER (layout_facts.h) */
	int32_t finalize_fid;
	uint64_t finalize_duration_ns;
	/* a stream's log (stream.c): the records the writers dropped, as
	 * STATUS counted them at the end, for the side table */
	bool stream;
	uint64_t records_dropped;
	/* a flight recorder's log (flush.c): what STATUS said of this
	 * generation's ring while FLUSHING held it - buffers overwritten
	 * with data in them, and records_dropped above - for the side table */
	bool ring_known;
	uint64_t buffers_recycled;
};

/*
 * Two steps, so that validation can run while the writes are in flight:
 *
 * log_layout_select: the buffers of the current generation with
 * extents, in seq order, placed as if every one were valid (len = extents);
 * trusted as for log_layout_build below.
 * log_layout_validate_step: check the next buffer's records; false when
 * all are checked.  If one was cut or dropped, `changed` is set and the
 * placement is stale.  log_layout_finish: validate what is left and, if
 * anything changed, drop the empty buffers and place again.
 */
int log_layout_select(const struct fdr_control *ctl, size_t map_len,
		      const struct fdr_status *trusted,
		      struct log_layout *layout, const char **why);
bool log_layout_validate_step(struct log_layout *layout);
void log_layout_finish(struct log_layout *layout);

/*
 * Build the layout of the log of the region mapped at ctl (map_len bytes):
 * select + finish.  Geometry, generation, header flags and cycle frequency
 * and the finalize trigger come from trusted, the kernel's STATUS of this
 * region, or with NULL from the control page (layout_facts.h says when).
 * Returns 0, or -EINVAL with *why naming what does not fit the mapping,
 * or -ENOMEM.  layout->nr_buffers == 0 means there is nothing to write
 * (llvm-xray rejects a header-only log).
 */
int log_layout_build(const struct fdr_control *ctl, size_t map_len,
		     const struct fdr_status *trusted,
		     struct log_layout *layout, const char **why);
void log_layout_free(struct log_layout *layout);

/*
 * The log as pieces in file order: header, then per buffer its extents
 * record and its data (pointing into the mapping).  2 * nr_buffers + 1
 * entries in *iov (malloc'ed); 0 on success or -ENOMEM.
 */
struct iovec;
int log_layout_iovecs(const struct log_layout *layout, struct iovec **iov,
		      size_t *n);

#endif /* FDRD_LOG_LAYOUT_H */
