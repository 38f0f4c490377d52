/* SPDX-License-Identifier: MIT */
/*
 * log_writer.h - write the log of a selected layout (log_layout_select)
 * to dir/log_name, with its side files (the .threads table, the .sched
 * file), validating the buffers while the writes are in flight.
 */
#ifndef FDRD_LOG_WRITER_H
#define FDRD_LOG_WRITER_H

#include "log_layout.h"
#include "uring_writer.h"

/* The files written before the log's rename, so a reader finds them. */
struct log_sides {
	const char *table_name;	/* the .threads table; NULL: none */
	const char *sched_name;	/* the .sched file; NULL: none */
	const void *sched;	/* its bytes (sched_file.h) */
	size_t sched_len;
};

/*
 * The write options of a log flush: io_uring writev for whatever the grace
 * period left unvalidated, plain pwritev() when it validated everything,
 * and the file's full size reserved (fallocate) before the first byte.
 * fdrd's command line and fdr record start from these.
 */
void log_write_defaults(struct uring_write_opts *o);

/*
 * Returns 0 (every file in place), 1 (validation dropped every buffer:
 * nothing written), or a negative errno with err naming path and cause
 * (no file left).  The layout is fully validated afterwards.
 */
int log_write(struct log_layout *l, const struct out_dir *dir, const char *log_name,
	      const struct log_sides *sides, const struct uring_write_opts *opts,
	      struct uring_write_report *rep, char *err, size_t errlen);

/*
 * The side files alone, for a log about to get its name (the stream
 * writes its log itself): the .threads table of l, then the .sched file.
 * 0, or a negative errno with err set and neither file left.
 */
int log_write_sides(const struct log_layout *l, const struct out_dir *dir,
		    const char *log_name, const struct log_sides *sides,
		    const struct uring_write_opts *opts, char *err, size_t errlen);
/* Remove the side files log_write_sides() wrote (the log did not follow). */
void log_remove_sides(const struct out_dir *dir, const struct log_sides *sides);

#endif /* FDRD_LOG_WRITER_H */
