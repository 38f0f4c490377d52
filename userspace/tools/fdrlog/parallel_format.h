/* SPDX-License-Identifier: MIT */
/*
 * parallel_format.h - format n items in chunks on worker threads and
 * write the chunks out in order: the text is exactly what one thread
 * would have written, produced on every core.
 */
#ifndef FDRLOG_PARALLEL_FORMAT_H
#define FDRLOG_PARALLEL_FORMAT_H

#include "out_buffer.h"

/* Append the text of items [lo, hi) to o; called concurrently. */
typedef void (*format_range_fn)(struct out_buffer *o, size_t lo, size_t hi, void *ctx);

void format_in_parallel(struct out_buffer *out, size_t n, format_range_fn fn, void *ctx);

/* The same, with the workers' buffers kept in fb for the next call (zero
 * it first; format_buffers_release at the end): a caller formatting batch
 * after batch reuses the pages instead of touching fresh ones. */
#define FORMAT_MAX_WORKERS 8
struct format_buffers {
	struct out_buffer ob[2 * FORMAT_MAX_WORKERS];
	size_t n;
};
void format_in_parallel_with(struct format_buffers *fb, struct out_buffer *out, size_t n,
			     format_range_fn fn, void *ctx);
void format_buffers_release(struct format_buffers *fb);

#endif
