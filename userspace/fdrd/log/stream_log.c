// SPDX-License-Identifier: MIT
/*
 * stream_log.c - the growing log of a stream (stream_log.h).
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/uio.h>
#include <fdr_size_limit.h>

#include "owner_note.h"
#include "stream_log.h"

int stream_log_open(struct stream_log *s, const struct out_dir *d,
		    const struct fdr_log_header *header, bool no_tmpfile,
		    char *err, size_t errlen)
{
	int ret;

	memset(s, 0, sizeof(*s));
	s->tmp.fd = -1;
	ret = io_uring_queue_init(8, &s->ring, 0);
	if (ret) {
		snprintf(err, errlen, "io_uring_queue_init: %s", strerror(-ret));
		return ret;
	}
	s->ring_ready = true;
	ret = fdr__size_limit_check(sizeof(*header));	/* no SIGXFSZ */
	if (!ret)
		ret = uring_tmp_create(&s->ring, d, "stream", 0, no_tmpfile, &s->tmp);
	if (!ret) {
		struct iovec iov = { (void *)header, sizeof(*header) };
		io_uring_prep_writev(io_uring_get_sqe(&s->ring), s->tmp.fd, &iov, 1, 0);
		ret = uring_complete_one(&s->ring);
		ret = ret == (int)sizeof(*header) ? 0 : ret < 0 ? ret : -EIO;
	}
	if (ret) {
		snprintf(err, errlen, "cannot create the stream's log in %s: %s",
			 d->path, strerror(-ret));
		return ret;
	}
	s->size = sizeof(*header);
	s->all.header = *header;
	return 0;
}

/* Drop the first done bytes of iov[0..*n). */
static struct iovec *advance(struct iovec *iov, size_t *n, size_t done)
{
	while (*n && done >= iov->iov_len) {
		done -= iov->iov_len;
		iov++;
		(*n)--;
	}
	if (*n) {
		iov->iov_base = (uint8_t *)iov->iov_base + done;
		iov->iov_len -= done;
	}
	return iov;
}

/*
 * Write iov[0..n) at the end of the file, short writes continued.
 * pwritev(2) on this thread, not io_uring: a buffered write to a
 * regular file is punted to an io-wq worker, and that hand-off (a wake-up
 * and a second thread's CPU per append) cost as much as the copy itself
 * (bench/stream, bench/app: keep everything).
 */
static int write_at_end(struct stream_log *s, struct iovec *iov, size_t n,
			uint64_t *written)
{
	uint64_t off = s->size;

	while (n) {
		int cnt = n > IOV_MAX ? IOV_MAX : (int)n;
		ssize_t ret = pwritev(s->tmp.fd, iov, cnt, (off_t)off);

		if (ret < 0 && errno == EINTR)
			continue;
		if (ret <= 0)
			return ret ? -errno : -EIO;
		off += (uint64_t)ret;
		iov = advance(iov, &n, (size_t)ret);
	}
	*written = off - s->size;
	return 0;
}

static int grow(struct stream_log *s, size_t more)
{
	struct log_buffer *b;
	struct log_problem *p;
	size_t cap = s->cap ? s->cap : 64;

	while (cap < s->all.nr_buffers + more)
		cap *= 2;
	if (cap == s->cap)
		return 0;
	b = realloc(s->all.buffers, cap * sizeof(*b));
	if (b)
		s->all.buffers = b;
	p = realloc(s->all.problems, cap * sizeof(*p));
	if (p)
		s->all.problems = p;
	if (!b || !p)
		return -ENOMEM;
	s->cap = cap;
	return 0;
}

/* The slot of key in an open-addressing table of cap (a power of 2). */
static size_t noted_slot(const uint64_t *t, size_t cap, uint64_t key)
{
	size_t i = key * 0x9e3779b97f4a7c15ull & (cap - 1);

	while (t[i] && t[i] != key)
		i = (i + 1) & (cap - 1);
	return i;
}

/* Is (tid, pid) in the set of threads with a note copy?  Adds it if not. */
static bool noted_before(struct stream_log *s, int32_t tid, int32_t pid)
{
	uint64_t key = (uint64_t)(uint32_t)tid << 32 | (uint32_t)pid | 1;
	size_t i;

	if (2 * (s->nr_noted + 1) > s->noted_cap) {
		size_t cap = s->noted_cap ? 2 * s->noted_cap : 256;
		uint64_t *n = calloc(cap, sizeof(*n));

		if (!n)
			return true;	/* no memory: /proc names it instead */
		for (size_t k = 0; k < s->noted_cap; k++)
			if (s->noted[k])
				n[noted_slot(n, cap, s->noted[k])] = s->noted[k];
		free(s->noted);
		s->noted = n;
		s->noted_cap = cap;
	}
	i = noted_slot(s->noted, s->noted_cap, key);
	if (s->noted[i])
		return true;
	s->noted[i] = key;
	s->nr_noted++;
	return false;
}

/* What the side table needs of the buffers just written. */
static void remember(struct stream_log *s, const struct log_layout *batch)
{
	for (size_t i = 0; i < batch->nr_buffers; i++) {
		struct log_buffer b = batch->buffers[i];

		b.note_copy = NULL;
		if (!noted_before(s, b.owner_tid, b.owner_pid))
			b.note_copy = owner_note_dup(&b, batch->generation, &b.note_len);
		b.data = NULL;
		b.known = NULL;
		s->all.buffers[s->all.nr_buffers++] = b;
	}
	for (size_t i = 0; i < batch->nr_problems; i++)
		s->all.problems[s->all.nr_problems++] = batch->problems[i];
	s->all.records += batch->records;
	s->all.generation = batch->generation;
	s->all.nr_descs = batch->nr_descs;
}

int stream_log_append(struct stream_log *s, const struct log_layout *batch,
		      char *err, size_t errlen)
{
	struct iovec *iov;
	uint64_t written = 0, want = 0;
	size_t n;
	int ret;

	if (!batch->nr_buffers)
		return 0;
	if (grow(s, batch->nr_buffers + batch->nr_problems) ||
	    log_layout_iovecs(batch, &iov, &n)) {
		snprintf(err, errlen, "out of memory appending to the stream's log");
		return -ENOMEM;
	}
	for (size_t i = 1; i < n; i++)
		want += iov[i].iov_len;
	ret = fdr__size_limit_check(s->size + want);
	if (!ret)
		ret = write_at_end(s, iov + 1, n - 1, &written);	/* iov[0]: header */
	free(iov);
	if (!ret && written != want)
		ret = -EIO;
	if (ret) {
		/* cut back to the last whole buffer: the log stays valid */
		if (ftruncate(s->tmp.fd, (off_t)s->size))
			snprintf(err, errlen, "the stream's log: %s, and cannot cut it back: %s",
				 strerror(-ret), strerror(errno));
		else
			snprintf(err, errlen, "writing the stream's log: %s%s", strerror(-ret),
				 ret == -EFBIG ? " (it would pass this process's file size "
						 "limit, ulimit -f: raise it)" : "");
		return ret;
	}
	s->size += written;
	s->all.file_size = s->size;
	remember(s, batch);
	return 0;
}

int stream_log_publish(struct stream_log *s, const struct out_dir *d,
		       const char *name, const struct log_sides *sides,
		       const struct uring_write_opts *opts, char *err, size_t errlen)
{
	int ret = 0;

	if (opts->fsync && fsync(s->tmp.fd))
		ret = -errno;
	if (!ret)
		ret = log_write_sides(&s->all, d, name, sides, opts, err, errlen);
	else
		snprintf(err, errlen, "fsync of the stream's log: %s", strerror(-ret));
	if (ret)
		return ret;
	ret = uring_tmp_publish(&s->ring, d, &s->tmp, name);
	if (ret) {
		log_remove_sides(d, sides);
		snprintf(err, errlen, "cannot name the stream's log %s/%s: %s", d->path,
			 name, strerror(-ret));
		return ret;
	}
	if (opts->fsync)
		fsync(d->fd);
	return 0;
}

void stream_log_close(struct stream_log *s, const struct out_dir *d)
{
	if (s->ring_ready) {
		uring_tmp_discard(&s->ring, d, &s->tmp);
		io_uring_queue_exit(&s->ring);
	}
	for (size_t i = 0; i < s->all.nr_buffers; i++)
		free((void *)s->all.buffers[i].note_copy);
	free(s->noted);
	log_layout_free(&s->all);
	memset(s, 0, sizeof(*s));
	s->tmp.fd = -1;
}
