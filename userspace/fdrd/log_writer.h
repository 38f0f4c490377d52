/* SPDX-License-Identifier: MIT */
/*
 * log_writer.h - write the log of a selected layout (log_layout_select)
 * to dir/log_name, and its side table to dir/table_name (NULL: none),
 * validating the buffers while the writes are in flight.
 */
#ifndef FDRD_LOG_WRITER_H
#define FDRD_LOG_WRITER_H

#include "log_layout.h"
#include "uring_writer.h"

/*
 * Returns 0 (both files in place), 1 (validation dropped every buffer:
 * nothing written), or a negative errno with err naming path and cause
 * (no file left).  The layout is fully validated afterwards.
 */
int log_write(struct log_layout *l, const struct out_dir *dir, const char *log_name,
	      const char *table_name, const struct uring_write_opts *opts,
	      struct uring_write_report *rep, char *err, size_t errlen);

#endif /* FDRD_LOG_WRITER_H */
