// SPDX-License-Identifier: MIT
/*
 * uring_sync.c - the bytes of a file as pwritev() calls from fdrd's own
 * thread (--io=pwritev).
 *
 * A buffered io_uring write to most filesystems (ext4 among them) cannot
 * complete without blocking, so io_uring hands each request to an io-wq
 * worker: the copy into the page cache is the same, plus a thread hand-off
 * per request.  When nothing is left to overlap with the writes (every
 * buffer was validated during the grace period), plain calls of up to
 * SYNC_CALL_BYTES of pieces each do less; each call still runs the idle
 * hook after its bytes, so a buffer not validated yet is validated while
 * its bytes are in the CPU cache.
 */
#include <errno.h>
#include <limits.h>
#include <sys/uio.h>

#include "uring_internal.h"

#define SYNC_CALL_BYTES (4u << 20)

/* How many pieces from iov[i] the next call takes (at least one). */
static size_t call_pieces(const struct iovec *iov, size_t n, size_t i)
{
	size_t k = 0, bytes = 0;

	while (i + k < n && k < IOV_MAX && bytes + iov[i + k].iov_len <= SYNC_CALL_BYTES)
		bytes += iov[i + k++].iov_len;
	return k ? k : 1;
}

int uring_pwritev_all(int fd, struct iovec *iov, size_t k, uint64_t off,
		     struct uring_write_report *rep)
{
	while (k) {
		ssize_t w = pwritev(fd, iov, (int)k, (off_t)off);

		if (w < 0 && errno == EINTR)
			continue;
		if (w < 0)
			return -errno;
		if (w == 0)
			return -EIO;
		rep->bytes += (uint64_t)w;
		off += (uint64_t)w;
		while (k && (size_t)w >= iov->iov_len) {
			w -= (ssize_t)iov->iov_len;
			iov++;
			k--;
		}
		if (k) {
			rep->short_writes++;
			iov->iov_base = (char *)iov->iov_base + w;
			iov->iov_len -= (size_t)w;
		}
	}
	return 0;
}

int uring_write_sync(int fd, const struct iovec *iov, size_t n,
		     const struct uring_write_hooks *hooks,
		     struct uring_write_report *rep)
{
	struct iovec call[IOV_MAX];
	uint64_t off = 0;
	bool idle = hooks && hooks->idle;

	for (size_t i = 0; i < n;) {
		size_t k = call_pieces(iov, n, i);
		uint64_t bytes = 0;
		int ret;

		for (size_t j = 0; j < k; j++) {
			call[j] = iov[i + j];
			bytes += iov[i + j].iov_len;
		}
		ret = uring_pwritev_all(fd, call, k, off, rep);
		if (ret)
			return ret;
		rep->sqes++;
		off += bytes;
		i += k;
		if (idle)
			idle = hooks->idle(hooks->ctx, off);
	}
	return 0;
}
