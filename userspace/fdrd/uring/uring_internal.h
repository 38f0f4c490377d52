/* SPDX-License-Identifier: MIT */
/*
 * uring_internal.h - shared by the io_uring writer's files: the one-shot
 * helper for metadata operations and the two ways of writing the bytes.
 */
#ifndef FDRD_URING_INTERNAL_H
#define FDRD_URING_INTERNAL_H

#include <limits.h>
#include <stdbool.h>
#include <liburing.h>

#include "out_dir.h"
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

/* O_DIRECT's alignment of offsets, lengths and memory (mode DIRECT). */
#define URING_DIRECT_ALIGN 4096u

/*
 * The same through aligned, registered bounce buffers: on an O_DIRECT fd
 * (mode DIRECT: padded to URING_DIRECT_ALIGN, truncated back) or a
 * buffered one (mode BOUNCE).
 * The idle hook runs for each chunk just before it is copied.
 */
int uring_write_direct(struct io_uring *ring, int fd, const struct iovec *iov,
		       size_t n, uint64_t total,
		       const struct uring_write_opts *opts,
		       const struct uring_write_hooks *hooks,
		       struct uring_write_report *report);

/*
 * The same as pwritev() calls from the calling thread (uring_sync.c); the
 * idle hook runs after each call.
 */
int uring_write_sync(int fd, const struct iovec *iov, size_t n,
		     const struct uring_write_hooks *hooks,
		     struct uring_write_report *report);

/* pwritev all of iov[0..k) at off, resuming after short writes (iov is
 * advanced in place). */
int uring_pwritev_all(int fd, struct iovec *iov, size_t k, uint64_t off,
		      struct uring_write_report *rep);

/*
 * The same, reading the pieces inside o->source from its descriptor into
 * reused slots first, written by a thread behind (uring_source.c,
 * write_behind.c).  -ENOTSUP before any byte is written when the
 * descriptor cannot be read: write from the mapping.
 */
int uring_write_sourced(int fd, const struct iovec *iov, size_t n,
			const struct uring_source *src,
			const struct uring_write_hooks *hooks,
			struct uring_write_report *report);

/* ---- the file being written (uring_tmpfile.c) ---------------------------- */

struct out_tmp {
	int fd;
	bool named;		/* no O_TMPFILE here: a hidden name instead */
	char name[NAME_MAX + 1];	/* that name, "" once it is gone */
};

int uring_close(struct io_uring *ring, int fd);
/*
 * A new file in d for the final name final, opened write-only with the
 * extra flags (O_DIRECT): O_TMPFILE, or a hidden name nothing was at
 * (always the latter with no_tmpfile).  0 or a negative errno.
 */
int uring_tmp_create(struct io_uring *ring, const struct out_dir *d,
		     const char *final, int flags, bool no_tmpfile,
		     struct out_tmp *t);
/*
 * Give the complete file the name final, never replacing an entry there
 * (-EEXIST), and close it.  -EOPNOTSUPP: this filesystem offers no way to
 * do that.  On failure nothing is left but what the caller discards.
 */
int uring_tmp_publish(struct io_uring *ring, const struct out_dir *d,
		      struct out_tmp *t, const char *final);
/* Close and remove a file that will not be published. */
void uring_tmp_discard(struct io_uring *ring, const struct out_dir *d,
		       struct out_tmp *t);
/* unlinkat(d, name) through a ring of its own. */
int uring_unlink_in(const struct out_dir *d, const char *name);

#endif /* FDRD_URING_INTERNAL_H */
