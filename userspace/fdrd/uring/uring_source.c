// SPDX-License-Identifier: MIT
/*
 * uring_source.c - the bytes of a file as pwritev() calls, the pieces that
 * lie in a mapping read from its descriptor into a small slot first.
 *
 * fdr record maps a region once and reads it once to flush it; on a
 * hypervisor with shadow page tables every first touch of a page through
 * that new mapping costs ~5.5 us (bench/flush, run I), four times the
 * copy itself.  pread() from the shared memory object touches no user
 * mapping, and the slots it fills are reused, so their pages are faulted
 * in once.  The pieces are shown to the copied hook (validation) in the
 * slot, then written from it: what is written is what was checked, while
 * the traced program could still change the mapping.  sendfile() would
 * write bytes nobody checked, or need them read a second time.
 *
 * Reading and validating cost about what the write costs, so the writes
 * go behind (write_behind.c): a thread of their own copies one slot into
 * the page cache while this one reads and validates the next, and the
 * flush takes the longer of the two instead of their sum (bench/flush,
 * run N).
 */
#include <errno.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/uio.h>

#include "uring_internal.h"
#include "write_behind.h"

#define SLOT_BYTES (256u << 10)

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

/* A slot holds SLOT_BYTES, or the largest piece if larger. */
static size_t slot_cap(const struct iovec *iov, size_t n, const struct uring_source *src)
{
	size_t cap = SLOT_BYTES;

	for (size_t i = 0; i < n; i++)
		if (in_source(src, &iov[i]) && iov[i].iov_len > cap)
			cap = iov[i].iov_len;
	return cap;
}

/*
 * Source pieces that lie end to end in the object (with the headers
 * between them, which are not read) are read with one pread(): a system
 * call costs microseconds on some hypervisors, and 4096 buffers would be
 * 4096 calls.
 */
struct pending {
	size_t first;		/* index in the slot's call of the first piece */
	uint8_t *copy;		/* where it goes in the slot */
	uint64_t at;		/* its offset in the object */
	uint64_t len;		/* bytes of the run; 0: none pending */
};

/*
 * Read the pending run into the slot, then show each of its pieces to
 * the copied hook (validation), in file order, while they are in the CPU
 * cache.  The slot is private, so the bytes checked are the bytes written.
 */
static int read_pending(struct write_behind_slot *s, struct pending *r,
			const struct uring_source *src,
			const struct uring_write_hooks *hooks)
{
	int ret;

	if (!r->len)
		return 0;
	ret = read_all(src->fd, r->copy, r->len, r->at);
	r->len = 0;
	for (size_t j = r->first; !ret && hooks && hooks->copied && j < s->k; j++)
		if (s->tag[j])
			hooks->copied(hooks->ctx, s->tag[j], s->call[j].iov_base,
				      s->call[j].iov_len);
	return ret;
}

/* Add iov to the current slot (to be read into it if it is the source's). */
static int add_piece(struct write_behind *wb, struct pending *r, const struct iovec *p,
		     const struct uring_source *src,
		     const struct uring_write_hooks *hooks)
{
	struct write_behind_slot *s = write_behind_slot(wb);
	bool from_src = in_source(src, p);
	uint64_t at = from_src ? (uint64_t)((const uint8_t *)p->iov_base -
					    (const uint8_t *)src->base) : 0;
	int ret = 0;

	if (s->k == IOV_MAX || (from_src && s->used + p->iov_len > s->cap)) {
		ret = read_pending(s, r, src, hooks);
		if (!ret)
			ret = write_behind_next(wb);
	} else if (r->len && from_src && at != r->at + r->len) {
		ret = read_pending(s, r, src, hooks);
	}
	if (ret)
		return ret;
	s = write_behind_slot(wb);
	s->call[s->k] = *p;
	s->tag[s->k] = NULL;
	if (from_src) {
		if (!r->len)
			*r = (struct pending){ .first = s->k, .copy = s->buf + s->used,
					       .at = at };
		s->tag[s->k] = p->iov_base;
		s->call[s->k].iov_base = s->buf + s->used;
		s->used += p->iov_len;
		r->len += p->iov_len;
	}
	s->bytes += p->iov_len;
	s->k++;
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
	struct pending r = { 0 };
	struct write_behind *wb;
	int ret = 0, closed;

	/* no memory for the slots (buffers of many MiB): nothing is written
	 * yet, so the caller writes from the mapping instead */
	if (write_behind_open(&wb, fd, slot_cap(iov, n, src)))
		return -ENOTSUP;
	for (size_t i = 0; !ret && i <= n; i++) {
		ret = i < n ? add_piece(wb, &r, &iov[i], src, hooks)
			    : read_pending(write_behind_slot(wb), &r, src, hooks);
		if (ret && refused(ret) && !write_behind_started(wb))
			ret = -ENOTSUP;	/* nothing written yet */
	}
	closed = write_behind_close(wb, !ret, rep);
	return ret ? ret : closed;
}
