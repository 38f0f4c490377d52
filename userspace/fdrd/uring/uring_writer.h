/* SPDX-License-Identifier: MIT */
/*
 * uring_writer.h - write a file of contiguous pieces through io_uring,
 * atomically: an unnamed file (O_TMPFILE, else a hidden name) in the
 * output directory, batched writes at precomputed offsets, optional
 * fsync, then its name, which never replaces an existing entry.  On any
 * error the file is discarded and nothing is left behind.
 */
#ifndef FDRD_URING_WRITER_H
#define FDRD_URING_WRITER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/uio.h>

#include "out_dir.h"

enum uring_write_mode {
	URING_WRITE_VECTORED,	/* IORING_OP_WRITEV, many pieces per SQE */
	URING_WRITE_FIXED,	/* registered buffers + WRITE_FIXED */
	URING_WRITE_DIRECT,	/* O_DIRECT from aligned bounce buffers */
	URING_WRITE_BOUNCE,	/* buffered, from registered bounce buffers */
	URING_WRITE_SYNC,	/* pwritev() from the calling thread */
	URING_WRITE_PREAD,	/* SYNC, the source's pieces read with pread() */
};

struct uring_write_opts {
	enum uring_write_mode mode;
	bool fsync;		/* fsync the file and its directory */
	bool preallocate;	/* fallocate the full size first (after the
				 * free-space check every file gets) */
	unsigned int queue_depth;	/* SQEs in flight, default 32 */
	size_t chunk_bytes;	/* bytes per SQE, default 1 MiB */
	bool async;		/* IOSQE_ASYNC: always hand writes to io-wq */
	bool register_file;	/* the output fd as a registered file */
	bool no_tmpfile;	/* as on a filesystem without O_TMPFILE (tests) */
	/* log_write: with mode VECTORED, write with SYNC instead when every
	 * buffer was validated before the flush (nothing left to overlap) */
	bool sync_if_prechecked;
	/* read the pieces lying in a mapping from its descriptor instead */
	const struct uring_source *source;
};

/*
 * A mapping whose bytes can be read with pread(fd, ..., offset + (p -
 * base)): a fresh mapping's first touch costs ~5.5 us a page on some
 * hypervisors (bench/flush/first_touch.c), a pread() into a buffer that
 * is reused costs a copy.  Pieces inside [base, base + len) are read into
 * such a buffer, shown to the copied hook, and written from there: the
 * bytes written are the bytes the hook saw, whatever the mapping's other
 * writers do meanwhile.
 */
struct uring_source {
	int fd;
	const void *base;
	size_t len;
};

struct uring_write_report {
	enum uring_write_mode mode_used;	/* after fallbacks */
	const char *fallback;	/* why the asked mode was not used, or NULL */
	unsigned long sqes;	/* write SQEs submitted (incl. resubmits) */
	unsigned long short_writes;
	uint64_t bytes;
};

/*
 * Optional work done around the writes:
 * idle: called after each submission with the end of the file range
 * submitted so far; does the work that range allows, returns false when
 * it has none left (fdrd validates the buffers just written, while their
 * bytes are still in the CPU cache, or while io-wq writes them).
 * before_rename: called when the file is complete, before it gets its
 * name; a non-zero return (a negative errno, with a sentence in err)
 * discards the file instead, and is returned.
 */
struct uring_write_hooks {
	bool (*idle)(void *ctx, uint64_t submitted_end);
	int (*before_rename)(void *ctx, char *err, size_t errlen);
	void *ctx;
	/* with a source: a piece at mapped was read into copy, to be written
	 * next (may change nothing in copy); called on the calling thread,
	 * once per piece, in file order */
	void (*copied)(void *ctx, const void *mapped, const void *copy, size_t len);
};

/*
 * Write iov[0..n) back to back into dir/name.  An existing dir/name (a
 * symlink included) is never replaced nor followed: -EEXIST.  Returns 0
 * or a negative errno; on error err holds a sentence naming the path and
 * the cause.
 */
int uring_write_file(const struct out_dir *dir, const char *name,
		     const struct iovec *iov, size_t n,
		     const struct uring_write_opts *opts,
		     struct uring_write_report *report,
		     char *err, size_t errlen);
int uring_write_file_hooked(const struct out_dir *dir, const char *name,
			    const struct iovec *iov, size_t n,
			    const struct uring_write_opts *opts,
			    const struct uring_write_hooks *hooks,
			    struct uring_write_report *report,
			    char *err, size_t errlen);

/* Remove dir/name (undoing a file written earlier in the same flush). */
int uring_remove_file(const struct out_dir *dir, const char *name);

const char *uring_write_mode_name(enum uring_write_mode mode);

#endif /* FDRD_URING_WRITER_H */
