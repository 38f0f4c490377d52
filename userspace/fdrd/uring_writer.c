// SPDX-License-Identifier: MIT
/*
 * uring_writer.c - the life of one output file: create under a hidden
 * temporary name, (preallocate,) write, (fsync,) close, rename without
 * replacing anything, (fsync the directory).  Every step is an io_uring
 * operation; any failure removes the temporary file, so a reader never
 * sees a partial file under the final name or a leftover temporary.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>

#include "uring_internal.h"

#define DEFAULT_DEPTH 4u
#define DEFAULT_CHUNK (256u << 10)

struct out_file {
	char tmp[4096];
	char final[4096];
	int fd;
};

const char *uring_write_mode_name(enum uring_write_mode mode)
{
	switch (mode) {
	case URING_WRITE_VECTORED: return "writev";
	case URING_WRITE_FIXED: return "registered buffers";
	case URING_WRITE_DIRECT: return "O_DIRECT";
	case URING_WRITE_BOUNCE: return "bounce buffers";
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

static int uring_open(struct io_uring *ring, const char *path, int flags,
		      mode_t mode)
{
	io_uring_prep_openat(io_uring_get_sqe(ring), AT_FDCWD, path, flags, mode);
	return uring_complete_one(ring);
}

static int uring_close(struct io_uring *ring, int fd)
{
	io_uring_prep_close(io_uring_get_sqe(ring), fd);
	return uring_complete_one(ring);
}

static int uring_fsync(struct io_uring *ring, int fd)
{
	io_uring_prep_fsync(io_uring_get_sqe(ring), fd, 0);
	return uring_complete_one(ring);
}

static int uring_unlink(struct io_uring *ring, const char *path)
{
	io_uring_prep_unlinkat(io_uring_get_sqe(ring), AT_FDCWD, path, 0);
	return uring_complete_one(ring);
}

static int uring_exists(struct io_uring *ring, const char *path)
{
	struct statx stx;

	io_uring_prep_statx(io_uring_get_sqe(ring), AT_FDCWD, path,
			    AT_SYMLINK_NOFOLLOW, 0, &stx);
	return uring_complete_one(ring) == 0;
}

/* Rename without replacing; plain rename where the filesystem lacks it. */
static int uring_rename_noreplace(struct io_uring *ring, const char *from,
				  const char *to)
{
	int ret;

	io_uring_prep_renameat(io_uring_get_sqe(ring), AT_FDCWD, from,
			       AT_FDCWD, to, RENAME_NOREPLACE);
	ret = uring_complete_one(ring);
	if (ret != -EINVAL)
		return ret;
	if (uring_exists(ring, to))
		return -EEXIST;
	io_uring_prep_renameat(io_uring_get_sqe(ring), AT_FDCWD, from,
			       AT_FDCWD, to, 0);
	return uring_complete_one(ring);
}

static int fsync_dir(struct io_uring *ring, const char *dir)
{
	int fd = uring_open(ring, dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC, 0);
	int ret;

	if (fd < 0)
		return fd;
	ret = uring_fsync(ring, fd);
	uring_close(ring, fd);
	return ret;
}

static int name_paths(struct out_file *f, const char *dir, const char *name)
{
	if ((size_t)snprintf(f->final, sizeof(f->final), "%s/%s", dir, name) >=
		    sizeof(f->final) ||
	    (size_t)snprintf(f->tmp, sizeof(f->tmp), "%s/.%s.tmp", dir, name) >=
		    sizeof(f->tmp))
		return -ENAMETOOLONG;
	return 0;
}

/* Create the temporary file; O_DIRECT falls back to buffered if refused. */
static int create_tmp(struct io_uring *ring, struct out_file *f,
		      struct uring_write_opts *o, struct uring_write_report *rep)
{
	int flags = O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC;

	if (o->mode == URING_WRITE_DIRECT) {
		f->fd = uring_open(ring, f->tmp, flags | O_DIRECT, 0640);
		if (f->fd != -EINVAL)
			return f->fd;
		rep->fallback = "the filesystem refuses O_DIRECT";
		o->mode = URING_WRITE_VECTORED;
	}
	f->fd = uring_open(ring, f->tmp, flags, 0640);
	return f->fd;
}

static uint64_t total_bytes(const struct iovec *iov, size_t n)
{
	uint64_t sum = 0;

	for (size_t i = 0; i < n; i++)
		sum += iov[i].iov_len;
	return sum;
}

/* Everything between create and rename; returns the failing step's errno. */
static int fill_file(struct io_uring *ring, struct out_file *f,
		     const struct iovec *iov, size_t n,
		     const struct uring_write_opts *o,
		     const struct uring_write_hooks *hooks,
		     struct uring_write_report *rep, const char **step)
{
	uint64_t total = total_bytes(iov, n);
	int ret;

	if (o->preallocate && total) {
		*step = "preallocate";
		io_uring_prep_fallocate(io_uring_get_sqe(ring), f->fd, 0, 0,
					(off_t)total);
		ret = uring_complete_one(ring);
		if (ret && ret != -EOPNOTSUPP)
			return ret;
	}
	*step = "write";
	if (o->mode == URING_WRITE_DIRECT || o->mode == URING_WRITE_BOUNCE)
		ret = uring_write_direct(ring, f->fd, iov, n, total, o, hooks, rep);
	else
		ret = uring_write_pieces(ring, f->fd, iov, n, o, hooks, rep);
	if (ret)
		return ret;
	if (o->fsync) {
		*step = "fsync";
		ret = uring_fsync(ring, f->fd);
		if (ret)
			return ret;
	}
	*step = "close";
	ret = uring_close(ring, f->fd);
	f->fd = -1;
	return ret;
}

static int write_atomically(struct io_uring *ring, const char *dir,
			    struct out_file *f, const struct iovec *iov,
			    size_t n, struct uring_write_opts *o,
			    const struct uring_write_hooks *hooks,
			    struct uring_write_report *rep, char *err, size_t errlen)
{
	const char *step = "create";
	int ret;

	if (uring_exists(ring, f->final)) {
		snprintf(err, errlen, "%s already exists; not replacing it", f->final);
		return -EEXIST;
	}
	ret = create_tmp(ring, f, o, rep);
	if (ret < 0) {
		snprintf(err, errlen, "cannot create %s: %s%s", f->tmp, strerror(-ret),
			 ret == -ENOENT ? " (the output directory is gone)" : "");
		return ret;
	}
	ret = fill_file(ring, f, iov, n, o, hooks, rep, &step);
	if (!ret && hooks && hooks->before_rename) {
		ret = hooks->before_rename(hooks->ctx, err, errlen);
		if (ret) {
			uring_unlink(ring, f->tmp);
			return ret;	/* the hook said why */
		}
	}
	if (!ret) {
		step = "rename";
		ret = uring_rename_noreplace(ring, f->tmp, f->final);
	}
	if (ret) {
		snprintf(err, errlen, "cannot %s %s: %s", step,
			 ret == -EEXIST ? f->final : f->tmp, strerror(-ret));
		if (f->fd >= 0)
			uring_close(ring, f->fd);
		uring_unlink(ring, f->tmp);
		return ret;
	}
	if (o->fsync && (ret = fsync_dir(ring, dir)) != 0) {
		/* the file is complete and in place; only durability is in doubt */
		snprintf(err, errlen, "cannot fsync directory %s: %s", dir, strerror(-ret));
		return ret;
	}
	return 0;
}

int uring_write_file(const char *dir, const char *name,
		     const struct iovec *iov, size_t n,
		     const struct uring_write_opts *opts,
		     struct uring_write_report *rep,
		     char *err, size_t errlen)
{
	return uring_write_file_hooked(dir, name, iov, n, opts, NULL, rep, err, errlen);
}

int uring_write_file_hooked(const char *dir, const char *name,
			    const struct iovec *iov, size_t n,
			    const struct uring_write_opts *opts,
			    const struct uring_write_hooks *hooks,
			    struct uring_write_report *rep,
			    char *err, size_t errlen)
{
	struct uring_write_opts o = *opts;
	struct out_file f = { .fd = -1 };
	struct io_uring ring;
	int ret;

	memset(rep, 0, sizeof(*rep));
	if (!o.queue_depth)
		o.queue_depth = DEFAULT_DEPTH;
	if (!o.chunk_bytes)
		o.chunk_bytes = DEFAULT_CHUNK;
	rep->mode_used = o.mode;
	if (name_paths(&f, dir, name)) {
		snprintf(err, errlen, "%s/%s: path too long", dir, name);
		return -ENAMETOOLONG;
	}
	ret = io_uring_queue_init(o.queue_depth * 2, &ring, 0);
	if (ret) {
		snprintf(err, errlen, "cannot set up io_uring: %s", strerror(-ret));
		return ret;
	}
	ret = write_atomically(&ring, dir, &f, iov, n, &o, hooks, rep, err, errlen);
	io_uring_queue_exit(&ring);
	return ret;
}

int uring_remove_file(const char *dir, const char *name)
{
	struct io_uring ring;
	char path[4096];
	int ret;

	if ((size_t)snprintf(path, sizeof(path), "%s/%s", dir, name) >= sizeof(path))
		return -ENAMETOOLONG;
	ret = io_uring_queue_init(2, &ring, 0);
	if (ret)
		return ret;
	ret = uring_unlink(&ring, path);
	io_uring_queue_exit(&ring);
	return ret;
}
