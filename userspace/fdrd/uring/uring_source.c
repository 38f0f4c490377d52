// SPDX-License-Identifier: MIT
/*
 * uring_source.c - the bytes of a file as pwritev() calls, the pieces that
 * lie in a mapping read from its descriptor into a reused buffer first.
 *
 * fdr record maps a region once and reads it once to flush it; on a
 * hypervisor with shadow page tables every first touch of a page through
 * that new mapping costs ~5.5 us (bench/flush, run I), four times the
 * copy itself.  pread() from the shared memory object touches no user
 * mapping, and the buffer it fills is reused, so its pages are faulted in
 * once.  The pieces are shown to the copied hook (validation) in the
 * buffer, then written from it: what is written is what was checked,
 * while the traced program could still change the mapping.  sendfile()
 * would write bytes nobody checked, or need them read a second time.
 */
#include <errno.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/uio.h>

#include "uring_internal.h"

#define SOURCE_BUF_BYTES (4u << 20)

struct batch {
	struct iovec call[IOV_MAX];
	size_t k;		/* pieces in call */
	size_t used;		/* bytes of buf taken */
	uint64_t bytes;		/* bytes in call */
	uint64_t off;		/* file offset of call[0] */
	uint8_t *buf;
	size_t cap;
};

static bool in_source(const struct uring_source *s, const struct iovec *p)
{
	const uint8_t *b = s->base, *q = p->iov_base;

	return p->iov_len && q >= b && q - b <= (ptrdiff_t)s->len &&
	       p->iov_len <= s->len - (size_t)(q - b);
}

/*
 * Read len bytes at off; past the object's end (the traced program may
 * truncate it) the rest is zeroes, which validation cuts as it would a
 * buffer never written.
 */
static int read_all(int fd, uint8_t *to, size_t len, uint64_t off)
{
	while (len) {
		ssize_t r = pread(fd, to, len, (off_t)off);

		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0)
			return -errno;
		if (r == 0) {
			memset(to, 0, len);
			return 0;
		}
		to += r;
		off += (uint64_t)r;
		len -= (size_t)r;
	}
	return 0;
}

static int flush_batch(int fd, struct batch *b, struct uring_write_report *rep)
{
	int ret = b->k ? uring_pwritev_all(fd, b->call, b->k, b->off, rep) : 0;

	if (b->k)
		rep->sqes++;
	b->off += b->bytes;
	b->k = b->used = 0;
	b->bytes = 0;
	return ret;
}

/* The buffer: SOURCE_BUF_BYTES, or the largest piece if larger. */
static int batch_init(struct batch *b, const struct iovec *iov, size_t n,
		      const struct uring_source *src)
{
	memset(b, 0, sizeof(*b));
	b->cap = SOURCE_BUF_BYTES;
	for (size_t i = 0; i < n; i++)
		if (in_source(src, &iov[i]) && iov[i].iov_len > b->cap)
			b->cap = iov[i].iov_len;
	b->buf = malloc(b->cap);
	return b->buf ? 0 : -ENOMEM;
}

/* Add iov (read into the buffer first if it is the source's). */
static int add_piece(int fd, struct batch *b, const struct iovec *p,
		     const struct uring_source *src,
		     const struct uring_write_hooks *hooks,
		     struct uring_write_report *rep)
{
	bool from_src = in_source(src, p);
	int ret = 0;

	if (b->k == IOV_MAX || (from_src && b->used + p->iov_len > b->cap))
		ret = flush_batch(fd, b, rep);
	if (ret)
		return ret;
	b->call[b->k] = *p;
	if (from_src) {
		uint8_t *copy = b->buf + b->used;

		ret = read_all(src->fd, copy, p->iov_len,
			       (uint64_t)((const uint8_t *)p->iov_base -
					  (const uint8_t *)src->base));
		if (ret)
			return ret;
		if (hooks && hooks->copied)
			hooks->copied(hooks->ctx, p->iov_base, copy, p->iov_len);
		b->call[b->k].iov_base = copy;
		b->used += p->iov_len;
	}
	b->bytes += p->iov_len;
	b->k++;
	return 0;
}

/* A descriptor that cannot be read at all: the caller writes from the map. */
static bool refused(int ret)
{
	return ret == -EINVAL || ret == -ENOSYS || ret == -EXDEV ||
	       ret == -ESPIPE || ret == -EBADF || ret == -EOPNOTSUPP;
}

int uring_write_sourced(int fd, const struct iovec *iov, size_t n,
			const struct uring_source *src,
			const struct uring_write_hooks *hooks,
			struct uring_write_report *rep)
{
	struct batch *b = malloc(sizeof(*b));
	int ret;

	if (!b)
		return -ENOMEM;
	ret = batch_init(b, iov, n, src);
	for (size_t i = 0; !ret && i < n; i++) {
		ret = add_piece(fd, b, &iov[i], src, hooks, rep);
		if (ret && refused(ret) && !rep->bytes)
			ret = -ENOTSUP;	/* nothing written yet */
	}
	if (!ret)
		ret = flush_batch(fd, b, rep);
	free(b->buf);
	free(b);
	return ret;
}
