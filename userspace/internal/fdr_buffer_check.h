/* SPDX-License-Identifier: MIT */
/*
 * fdr_buffer_check.h - is a buffer's committed prefix a well-formed XRay
 * FDR v2 block?  libfdrread owns the record grammar (block_verifier.c);
 * this is its walk over one raw buffer, the one fdrd runs on every buffer
 * before it goes into a log: fdrd must never emit a log llvm-xray
 * rejects, and the buffers are written by (possibly hostile or crashed)
 * userspace.
 */
#ifndef FDR_BUFFER_CHECK_H
#define FDR_BUFFER_CHECK_H

#include <stddef.h>
#include <stdint.h>

struct fdr__buffer_check {
	size_t valid_len;	/* longest prefix that is a complete block */
	size_t records;		/* records in that prefix */
	size_t bad_offset;	/* where the walk stopped (== len if it did not) */
	const char *problem;	/* NULL if all len bytes are valid */
};

/*
 * Walk len bytes of records, NewBuffer first (the BufferExtents before it
 * is fdrd's to write).  valid_len is the longest prefix that ends at a
 * record boundary in a state llvm-xray accepts as the end of a block
 * (after NewCPUId, TSCWrap, an event, a function record or an argument);
 * 0 if no such prefix exists (the buffer must be dropped).
 *
 * An all-zero function record - Enter(fid 0) with delta 0 - ends the walk:
 * no writer makes one (XRay and the adapters number functions from 1), but
 * the never-written, zeroed tail of a buffer reads as a run of them when
 * a hostile or broken writer published extents past its data.
 */
void fdr__buffer_check(const uint8_t *buf, size_t len, struct fdr__buffer_check *out);

#endif /* FDR_BUFFER_CHECK_H */
