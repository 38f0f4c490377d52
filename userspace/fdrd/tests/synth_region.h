/* SPDX-License-Identifier: MIT */
/*
 * synth_region.h - a region laid out per uapi/linux/fdr.h in a memfd,
 * filled with hand-written records, for testing the log assembly without
 * the kernel or libfdr.  rw is the writers' view, ro a read-only mapping
 * as fdrd gets from fdr_ctl_map().
 */
#ifndef FDRD_SYNTH_REGION_H
#define FDRD_SYNTH_REGION_H

#include <stddef.h>
#include <stdint.h>

#include <linux/fdr.h>

struct synth_region {
	int fd;
	size_t len;
	struct fdr_control *ctl;	/* read-write view */
	const struct fdr_control *ro;	/* read-only view */
};

int synth_region_create(struct synth_region *r, uint32_t nr_buffers,
			uint64_t buffer_size, uint32_t flags, uint64_t tsc_hz);
void synth_region_destroy(struct synth_region *r);

struct fdr_buffer_desc *synth_desc(struct synth_region *r, uint32_t i);
uint8_t *synth_buffer(struct synth_region *r, uint32_t i);

/*
 * Fill buffer i as a writer would: NewBuffer(tid), Walltime, NewCPUId(cpu,
 * tsc), then pairs Enter/Exit of function fid (deltas 1 and 2) until
 * `pairs` pairs are written or the buffer is full; publish extents and
 * the descriptor (seq, owner, current generation, RELEASED).  Returns the
 * extents.
 */
uint64_t synth_fill(struct synth_region *r, uint32_t i, uint64_t seq,
		    int32_t tid, int32_t pid, uint16_t cpu, uint64_t tsc,
		    int32_t fid, size_t pairs);

/*
 * Write the owner note of buffer i as libfdr does, from its descriptor
 * (call after synth_fill): comm, exe, size rounded up.  Returns a pointer
 * to the note so a test can spoil it.
 */
uint8_t *synth_note(struct synth_region *r, uint32_t i, const char *comm,
		    const char *exe);

/* Append raw bytes at the end of buffer i's extents (no checks). */
void synth_append(struct synth_region *r, uint32_t i, const void *rec, size_t len);

/* Record builders. */
void synth_metadata(uint8_t rec[16], unsigned int kind);
void synth_function(uint8_t rec[8], unsigned int kind, int32_t fid, uint32_t delta);

#endif /* FDRD_SYNTH_REGION_H */
