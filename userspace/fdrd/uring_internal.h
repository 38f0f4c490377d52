/* SPDX-License-Identifier: MIT */
/*
 * uring_internal.h - shared by the io_uring writer's files: the one-shot
 * helper for metadata operations and the two ways of writing the bytes.
 */
#ifndef FDRD_URING_INTERNAL_H
#define FDRD_URING_INTERNAL_H

#include <liburing.h>

#include "uring_writer.h"

/* Submit the one prepared SQE and wait for its result (EINTR retried). */
int uring_complete_one(struct io_uring *ring);

/*
 * Write iov[0..n) to fd from offset 0 with WRITEV or, if mode is FIXED and
 * registration works, WRITE_FIXED.  Returns 0 or a negative errno.
 */
int uring_write_pieces(struct io_uring *ring, int fd, const struct iovec *iov,
		       size_t n, const struct uring_write_opts *opts,
		       const struct uring_write_hooks *hooks,
		       struct uring_write_report *report);

/*
 * The same through aligned, registered bounce buffers: on an O_DIRECT fd
 * (mode DIRECT: padded, truncated back) or a buffered one (mode BOUNCE).
 * The idle hook runs for each chunk just before it is copied.
 */
int uring_write_direct(struct io_uring *ring, int fd, const struct iovec *iov,
		       size_t n, uint64_t total,
		       const struct uring_write_opts *opts,
		       const struct uring_write_hooks *hooks,
		       struct uring_write_report *report);

#endif /* FDRD_URING_INTERNAL_H */
