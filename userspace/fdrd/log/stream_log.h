/* SPDX-License-Identifier: MIT */
/*
 * stream_log.h - the log of a stream, written while the program runs:
 * an unnamed file in the output directory (as every log, uring_writer.h)
 * that grows by whole buffers - extents record, then data - and gets its
 * name, after its side files, when the stream ends.  It ends at a buffer
 * boundary whatever happens: an append that fails is cut back off.
 *
 * It also keeps what the side table needs of every buffer written (ids,
 * sequence, the owner note of each thread's first buffer), since the
 * buffers themselves go back to the writers.
 */
#ifndef FDRD_STREAM_LOG_H
#define FDRD_STREAM_LOG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <liburing.h>

#include "log_layout.h"
#include "log_writer.h"
#include "out_dir.h"
#include "uring_internal.h"

struct stream_log {
	struct io_uring ring;
	bool ring_ready;
	struct out_tmp tmp;
	uint64_t size;		/* bytes in the file: header + whole buffers */
	struct log_layout all;	/* the buffers written, data NULL */
	size_t cap;		/* of all.buffers and all.problems */
	uint64_t *noted;	/* (tid, pid) with a note copy: hash set */
	size_t noted_cap, nr_noted;
};

/* Create the unnamed file in d and write the header; 0 or -errno (err). */
int stream_log_open(struct stream_log *s, const struct out_dir *d,
		    const struct fdr_log_header *header, bool no_tmpfile,
		    char *err, size_t errlen);
/*
 * Append the buffers of batch (validated: log_layout_finish), in its
 * order.  0, or -errno with err set and the file as it was before.
 */
int stream_log_append(struct stream_log *s, const struct log_layout *batch,
		      char *err, size_t errlen);
/*
 * The stream is over: the side files of s->all (whose finalize facts the
 * caller sets), then the log's name (never replacing anything), fsynced
 * first with fsync.  0, or -errno with err set and no file left.
 */
int stream_log_publish(struct stream_log *s, const struct out_dir *d,
		       const char *name, const struct log_sides *sides,
		       const struct uring_write_opts *opts, char *err, size_t errlen);
/* Discard the file if it was not published, and free everything. */
void stream_log_close(struct stream_log *s, const struct out_dir *d);

#endif /* FDRD_STREAM_LOG_H */
