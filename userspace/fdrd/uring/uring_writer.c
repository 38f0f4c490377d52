// SPDX-License-Identifier: MIT
/*
 * uring_writer.c - the life of one output file: create it unnamed
 * (uring_tmpfile.c), check the room for it, (preallocate,) write,
 * (fsync,) give it its name without replacing anything, close, (fsync the
 * directory).  Every step is relative to the output directory's
 * descriptor; any failure discards the file, so a reader never sees a
 * partial file under the final name or a leftover temporary.
 *
 * The steps are io_uring operations, except in the pwritev mode
 * (URING_WRITE_SYNC: the bytes written from the calling thread), which
 * uses no ring at all: there, every io_uring step (the create, link,
 * close; renameat and linkat are always handed to an io-wq worker) only
 * added a thread hand-off, and on a loaded machine each hand-off waits
 * for a CPU, so the flush took far longer than its CPU time (bench/flush,
 * run M).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/statvfs.h>
#include <unistd.h>
#include <sys/stat.h>

#include <fdr_size_limit.h>
#include "uring_internal.h"

#define DEFAULT_DEPTH 4u
#define DEFAULT_CHUNK (256u << 10)

const char *uring_write_mode_name(enum uring_write_mode mode)
{
	switch (mode) {
	case URING_WRITE_VECTORED: return "writev";
	case URING_WRITE_FIXED: return "registered buffers";
	case URING_WRITE_DIRECT: return "O_DIRECT";
	case URING_WRITE_BOUNCE: return "bounce buffers";
	case URING_WRITE_SYNC: return "pwritev";
	case URING_WRITE_PREAD: return "pread+pwritev";
	}
	return "?";
}

int uring_complete_one(struct io_uring *ring)
{
	struct io_uring_cqe *cqe;
	int ret;

	ret = io_uring_submit(ring);
	if (ret < 0)
		return ret;
	do
		ret = io_uring_wait_cqe(ring, &cqe);
	while (ret == -EINTR);
	if (ret < 0)
		return ret;
	ret = cqe->res;
	io_uring_cqe_seen(ring, cqe);
	return ret;
}

static int uring_fsync(struct io_uring *ring, int fd)
{
	if (!ring)
		return fsync(fd) ? -errno : 0;
	io_uring_prep_fsync(io_uring_get_sqe(ring), fd, 0);
	return uring_complete_one(ring);
}

static int uring_fallocate(struct io_uring *ring, int fd, uint64_t len)
{
	if (!ring)
		return fallocate(fd, 0, 0, (off_t)len) ? -errno : 0;
	io_uring_prep_fallocate(io_uring_get_sqe(ring), fd, 0, 0, (off_t)len);
	return uring_complete_one(ring);
}

/* Create the file; O_DIRECT falls back to buffered if refused. */
static int create_tmp(struct io_uring *ring, const struct out_dir *d,
		      const char *name, struct uring_write_opts *o,
		      struct uring_write_report *rep, struct out_tmp *t)
{
	int ret;

	if (o->mode == URING_WRITE_DIRECT) {
		ret = uring_tmp_create(ring, d, name, O_DIRECT, o->no_tmpfile, t);
		if (ret != -EINVAL)
			return ret;
		rep->fallback = "the filesystem refuses O_DIRECT";
		o->mode = URING_WRITE_VECTORED;
	}
	return uring_tmp_create(ring, d, name, 0, o->no_tmpfile, t);
}

static uint64_t total_bytes(const struct iovec *iov, size_t n)
{
	uint64_t sum = 0;

	for (size_t i = 0; i < n; i++)
		sum += iov[i].iov_len;
	return sum;
}

/*
 * Is there room for the whole file?  Checked before its first byte, so
 * that a full disk fails here, not after copying most of a log.  Free
 * blocks, not the unprivileged share (f_bavail): a writer allowed into
 * the reserve must not be refused a log it could write; one that is not
 * fails at its first write instead, and leaves nothing either.  An
 * unknown answer (no statvfs) lets the writes find out.
 */
static int check_space(int fd, uint64_t total)
{
	struct statvfs s;

	if (fstatvfs(fd, &s) || !s.f_frsize)
		return 0;
	return (uint64_t)s.f_bfree < (total + s.f_frsize - 1) / s.f_frsize ? -ENOSPC : 0;
}

/* The bytes: from the source's descriptor when there is one that reads. */
static int write_bytes(struct io_uring *ring, int fd, const struct iovec *iov,
		       size_t n, uint64_t total, const struct uring_write_opts *o,
		       const struct uring_write_hooks *hooks,
		       struct uring_write_report *rep)
{
	if (o->source && (o->mode == URING_WRITE_SYNC || o->mode == URING_WRITE_VECTORED)) {
		int ret = uring_write_sourced(fd, iov, n, o->source, hooks, rep);

		if (ret != -ENOTSUP) {
			rep->mode_used = URING_WRITE_PREAD;
			return ret;
		}
		rep->fallback = "the region's descriptor cannot be read, or no memory for the copies";
	}
	if (o->mode == URING_WRITE_DIRECT || o->mode == URING_WRITE_BOUNCE)
		return uring_write_direct(ring, fd, iov, n, total, o, hooks, rep);
	if (o->mode == URING_WRITE_SYNC)
		return uring_write_sync(fd, iov, n, hooks, rep);
	return uring_write_pieces(ring, fd, iov, n, o, hooks, rep);
}

/* Everything between create and publish; returns the failing step's errno. */
static int fill_file(struct io_uring *ring, int fd, const struct iovec *iov,
		     size_t n, const struct uring_write_opts *o,
		     const struct uring_write_hooks *hooks,
		     struct uring_write_report *rep, const char **step)
{
	uint64_t total = total_bytes(iov, n);
	int ret;

	*step = "find room for";
	/* mode DIRECT writes its last block whole, then cuts the file back */
	ret = fdr__size_limit_check(o->mode == URING_WRITE_DIRECT ?
				    (total + URING_DIRECT_ALIGN - 1) &
				    ~(uint64_t)(URING_DIRECT_ALIGN - 1) : total);
	if (!ret)
		ret = check_space(fd, total);
	if (ret)
		return ret;
	if (o->preallocate && total) {
		*step = "preallocate";
		ret = uring_fallocate(ring, fd, total);
		if (ret && ret != -EOPNOTSUPP)
			return ret;
	}
	*step = "write";
	ret = write_bytes(ring, fd, iov, n, total, o, hooks, rep);
	if (ret || !o->fsync)
		return ret;
	*step = "fsync";
	return uring_fsync(ring, fd);
}

/* Why a step failed, in words a user can act on. */
static const char *hint_of(const char *step, int ret)
{
	if (ret == -ENOENT && !strcmp(step, "create"))
		return " (the output directory is gone)";
	if (ret == -ENOENT && !strcmp(step, "link"))
		return " (the output directory is gone, or /proc is not mounted: "
		       "fdrd names its files through /proc/self/fd)";
	if (ret == -EEXIST && !strcmp(step, "link"))
		return " (the name was taken while the file was written; "
		       "fdrd never replaces a file)";
	if (ret == -EEXIST)
		return " (every hidden temporary name tried is taken)";
	if (ret == -ENOSPC && !strcmp(step, "find room for"))
		return " (the filesystem has fewer free blocks than the log's size; "
		       "nothing was written)";
	if (ret == -EFBIG && !strcmp(step, "find room for"))
		return " (the log would be larger than this process's file size limit, "
		       "ulimit -f: raise it, or record less; nothing was written)";
	if (ret == -EFBIG)
		return " (the file size limit, ulimit -f, was reached while writing)";
	if (ret == -EOPNOTSUPP && !strcmp(step, "link"))
		return " (this filesystem has neither O_TMPFILE, RENAME_NOREPLACE "
		       "nor hard links, so fdrd cannot put a file in place "
		       "without risking replacing another)";
	if (ret == -EINVAL && !strcmp(step, "link"))
		return " (io_uring's linkat needs Linux 5.15)";
	return "";
}

static void say_failed(char *err, size_t errlen, const struct out_dir *d,
		       const struct out_tmp *t, const char *name,
		       const char *step, int ret)
{
	const char *shown = t->named && t->name[0] && strcmp(step, "link") ?
			    t->name : name;

	snprintf(err, errlen, "cannot %s %s/%s: %s%s", step, d->path, shown,
		 ret == -EOPNOTSUPP ? "Operation not supported" : strerror(-ret),
		 hint_of(step, ret));
}

static int write_atomically(struct io_uring *ring, const struct out_dir *d,
			    const char *name, const struct iovec *iov,
			    size_t n, struct uring_write_opts *o,
			    const struct uring_write_hooks *hooks,
			    struct uring_write_report *rep, char *err, size_t errlen)
{
	struct out_tmp t = { .fd = -1 };
	const char *step = "create";
	int ret;

	ret = create_tmp(ring, d, name, o, rep, &t);
	/* O_TMPFILE in a removed directory fails with EPERM on some filesystems */
	if (ret && ret != -ENOENT && out_dir_gone(d))
		ret = -ENOENT;
	if (!ret)
		ret = fill_file(ring, t.fd, iov, n, o, hooks, rep, &step);
	if (!ret && hooks && hooks->before_rename) {
		ret = hooks->before_rename(hooks->ctx, err, errlen);
		if (ret) {
			uring_tmp_discard(ring, d, &t);
			return ret;	/* the hook said why */
		}
	}
	if (!ret) {
		step = "link";
		ret = uring_tmp_publish(ring, d, &t, name);
	}
	if (ret) {
		say_failed(err, errlen, d, &t, name, step, ret);
		uring_tmp_discard(ring, d, &t);
		return ret;
	}
	if (o->fsync && (ret = uring_fsync(ring, d->fd)) != 0) {
		/* the file is complete and in place; only durability is in doubt */
		snprintf(err, errlen, "cannot fsync directory %s: %s", d->path,
			 strerror(-ret));
		return ret;
	}
	return 0;
}

int uring_write_file(const struct out_dir *dir, const char *name,
		     const struct iovec *iov, size_t n,
		     const struct uring_write_opts *opts,
		     struct uring_write_report *rep,
		     char *err, size_t errlen)
{
	return uring_write_file_hooked(dir, name, iov, n, opts, NULL, rep, err, errlen);
}

int uring_write_file_hooked(const struct out_dir *dir, const char *name,
			    const struct iovec *iov, size_t n,
			    const struct uring_write_opts *opts,
			    const struct uring_write_hooks *hooks,
			    struct uring_write_report *rep,
			    char *err, size_t errlen)
{
	struct uring_write_opts o = *opts;
	struct io_uring ring;
	int ret;

	memset(rep, 0, sizeof(*rep));
	if (!o.queue_depth)
		o.queue_depth = DEFAULT_DEPTH;
	if (!o.chunk_bytes)
		o.chunk_bytes = DEFAULT_CHUNK;
	rep->mode_used = o.mode;
	if (strlen(name) + sizeof(".00000000.tmp") > NAME_MAX) {
		snprintf(err, errlen, "%s/%s: name too long", dir->path, name);
		return -ENAMETOOLONG;
	}
	if (o.mode == URING_WRITE_SYNC)	/* no ring: see the comment at the top */
		return write_atomically(NULL, dir, name, iov, n, &o, hooks, rep, err, errlen);
	ret = io_uring_queue_init(o.queue_depth * 2, &ring, 0);
	if (ret) {
		snprintf(err, errlen, "cannot set up io_uring: %s", strerror(-ret));
		return ret;
	}
	ret = write_atomically(&ring, dir, name, iov, n, &o, hooks, rep, err, errlen);
	io_uring_queue_exit(&ring);
	return ret;
}

int uring_remove_file(const struct out_dir *dir, const char *name)
{
	return uring_unlink_in(dir, name);
}
