// SPDX-License-Identifier: MIT
/*
 * uring_tmpfile.c - create a file no one else can see or have planted,
 * and give it its final name without ever replacing anything.
 *
 * The file is created relative to the output directory's descriptor,
 * through io_uring, or with plain system calls when ring is NULL (the
 * pwritev mode, which has no ring: uring_writer.c):
 *
 * - O_TMPFILE: an inode with no name at all, so nothing planted in the
 *   directory (a symlink or hard link at a temporary name) is ever
 *   opened.  It gets its name by linkat() of /proc/self/fd/N with
 *   AT_SYMLINK_FOLLOW (AT_EMPTY_PATH would need CAP_DAC_READ_SEARCH on
 *   6.1, which fdrd's unit does not have); linkat never replaces the
 *   target, so the name appears complete or not at all.
 * - where the filesystem has no O_TMPFILE (9p, NFS, ...): a hidden name
 *   made with O_CREAT|O_EXCL|O_NOFOLLOW (a planted entry makes the open
 *   fail, and another name is tried), then renameat2(RENAME_NOREPLACE);
 *   where that is unsupported too, link() and unlink() of the hidden name,
 *   which cannot replace either.  There is no check-then-rename: a name
 *   taken between a check and the rename would be replaced.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <sys/random.h>

#include "uring_internal.h"

#define NAMED_TRIES 16

/* A system call's result as the helpers return it: 0/fd or -errno. */
static int sys_result(int ret)
{
	return ret < 0 ? -errno : ret;
}

int uring_close(struct io_uring *ring, int fd)
{
	if (!ring)
		return sys_result(close(fd));
	io_uring_prep_close(io_uring_get_sqe(ring), fd);
	return uring_complete_one(ring);
}

static int uring_openat(struct io_uring *ring, int dirfd, const char *path,
			int flags, mode_t mode)
{
	if (!ring)
		return sys_result(openat(dirfd, path, flags, mode));
	io_uring_prep_openat(io_uring_get_sqe(ring), dirfd, path, flags, mode);
	return uring_complete_one(ring);
}

static int uring_unlinkat(struct io_uring *ring, int dirfd, const char *name)
{
	if (!ring)
		return sys_result(unlinkat(dirfd, name, 0));
	io_uring_prep_unlinkat(io_uring_get_sqe(ring), dirfd, name, 0);
	return uring_complete_one(ring);
}

static int uring_linkat(struct io_uring *ring, int olddir, const char *old,
			int newdir, const char *new, int flags)
{
	if (!ring)
		return sys_result(linkat(olddir, old, newdir, new, flags));
	io_uring_prep_linkat(io_uring_get_sqe(ring), olddir, old, newdir, new, flags);
	return uring_complete_one(ring);
}

static int uring_renameat_noreplace(struct io_uring *ring, int dirfd, const char *old,
				    const char *new)
{
	if (!ring)
		return sys_result(renameat2(dirfd, old, dirfd, new, RENAME_NOREPLACE));
	io_uring_prep_renameat(io_uring_get_sqe(ring), dirfd, old, dirfd, new,
			       RENAME_NOREPLACE);
	return uring_complete_one(ring);
}

/* The hidden name of try i: .NAME.tmp first, then a random one. */
static int named_candidate(const char *final, int i, char *out, size_t len)
{
	unsigned int r = 0;

	if (i && getrandom(&r, sizeof(r), 0) != sizeof(r))
		r = (unsigned int)getpid() * 2654435761u + (unsigned int)i;
	if ((size_t)(i ? snprintf(out, len, ".%s.%08x.tmp", final, r)
		       : snprintf(out, len, ".%s.tmp", final)) >= len)
		return -ENAMETOOLONG;
	return 0;
}

static int create_named(struct io_uring *ring, const struct out_dir *d,
			const char *final, int flags, struct out_tmp *t)
{
	int ret = -EEXIST;

	t->named = true;
	for (int i = 0; i < NAMED_TRIES && ret == -EEXIST; i++) {
		ret = named_candidate(final, i, t->name, sizeof(t->name));
		if (ret)
			return ret;
		/* EEXIST and ELOOP: something is there; never open it */
		ret = uring_openat(ring, d->fd, t->name, flags | O_CREAT | O_EXCL |
				   O_NOFOLLOW, 0640);
		if (ret == -ELOOP)
			ret = -EEXIST;
	}
	t->fd = ret;
	return ret < 0 ? ret : 0;
}

int uring_tmp_create(struct io_uring *ring, const struct out_dir *d,
		     const char *final, int flags, bool no_tmpfile,
		     struct out_tmp *t)
{
	int ret = -EOPNOTSUPP;

	t->named = false;
	t->name[0] = '\0';
	flags |= O_WRONLY | O_CLOEXEC;
	if (!no_tmpfile)
		ret = uring_openat(ring, d->fd, ".", flags | O_TMPFILE, 0640);
	/* EISDIR: a kernel that predates O_TMPFILE; EOPNOTSUPP: the fs lacks it */
	if (ret != -EOPNOTSUPP && ret != -EISDIR) {
		t->fd = ret;
		return ret < 0 ? ret : 0;
	}
	return create_named(ring, d, final, flags, t);
}

/* linkat never replaces: the name appears whole, or EEXIST. */
static int publish_tmpfile(struct io_uring *ring, const struct out_dir *d,
			   struct out_tmp *t, const char *final)
{
	char proc[64];
	int ret;

	snprintf(proc, sizeof(proc), "/proc/self/fd/%d", t->fd);
	ret = uring_linkat(ring, AT_FDCWD, proc, d->fd, final, AT_SYMLINK_FOLLOW);
	uring_close(ring, t->fd);	/* after the link, or the inode is gone */
	t->fd = -1;
	return ret;
}

static int publish_named(struct io_uring *ring, const struct out_dir *d,
			 struct out_tmp *t, const char *final)
{
	int ret;

	ret = uring_renameat_noreplace(ring, d->fd, t->name, final);
	if (!ret)
		t->name[0] = '\0';	/* the hidden name is gone with the rename */
	if (ret != -EINVAL)
		return ret;
	/* no RENAME_NOREPLACE here (9p, NFS): a hard link cannot replace either */
	ret = uring_linkat(ring, d->fd, t->name, d->fd, final, 0);
	if (ret == -EPERM || ret == -EOPNOTSUPP || ret == -EMLINK)
		return -EOPNOTSUPP;
	return ret;	/* linked or not, the caller removes the hidden name */
}

int uring_tmp_publish(struct io_uring *ring, const struct out_dir *d,
		      struct out_tmp *t, const char *final)
{
	int ret;

	if (!t->named)
		return publish_tmpfile(ring, d, t, final);
	ret = uring_close(ring, t->fd);
	t->fd = -1;
	if (!ret)
		ret = publish_named(ring, d, t, final);
	if (t->name[0])
		uring_unlinkat(ring, d->fd, t->name);
	t->name[0] = '\0';
	return ret;
}

/*
 * Only a file we created and still hold is removed: after a failed create
 * the hidden name is someone else's entry (or nothing), and a publish
 * removes its hidden name itself.
 */
void uring_tmp_discard(struct io_uring *ring, const struct out_dir *d,
		       struct out_tmp *t)
{
	if (t->fd < 0)
		return;
	uring_close(ring, t->fd);
	t->fd = -1;
	if (t->named && t->name[0])
		uring_unlinkat(ring, d->fd, t->name);
	t->name[0] = '\0';
}

int uring_unlink_in(const struct out_dir *d, const char *name)
{
	struct io_uring ring;
	int ret = io_uring_queue_init(2, &ring, 0);

	if (ret)
		return ret;
	ret = uring_unlinkat(&ring, d->fd, name);
	io_uring_queue_exit(&ring);
	return ret;
}
