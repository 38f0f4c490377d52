// SPDX-License-Identifier: MIT
/*
 * uring_batch.c - the bytes of a file as batched io_uring writes.
 *
 * The pieces (header, extents records, buffer data straight from the
 * mapping) lie back to back in the file, so every file offset is known
 * before the first write.  They are cut into requests of at most
 * chunk_bytes; up to queue_depth requests are in flight at once.  A short
 * write is resubmitted for its remainder.
 */
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "uring_internal.h"

#define MAX_REGISTERED 16384u		/* IORING_MAX_REG_BUFFERS */
#define MAX_REGISTERED_SPAN (1ull << 30)	/* per registered buffer */

struct write_req {
	uint64_t off;
	struct iovec *iov;	/* into the request's own slice of segs */
	unsigned int iovcnt;
	int buf_index;		/* registered buffer for WRITE_FIXED, or -1 */
};

struct batch {
	struct iovec *segs;	/* the pieces, split at request boundaries */
	size_t nr_segs;
	struct write_req *reqs;
	size_t nr_reqs;
	struct iovec *spans;	/* registered page spans (FIXED) */
	size_t nr_spans;
};

static size_t req_bytes(const struct write_req *r)
{
	size_t sum = 0;

	for (unsigned int i = 0; i < r->iovcnt; i++)
		sum += r->iov[i].iov_len;
	return sum;
}

/* Upper bound of segments after splitting at chunk boundaries. */
static size_t count_segments(const struct iovec *iov, size_t n, size_t chunk)
{
	size_t total = n;

	for (size_t i = 0; i < n; i++)
		total += iov[i].iov_len / chunk + 1;
	return total;
}

/*
 * Cut the pieces into requests of at most chunk bytes and IOV_MAX
 * segments; with one_segment every request is a single segment
 * (WRITE_FIXED takes one address).
 */
static int plan_requests(struct batch *b, const struct iovec *iov, size_t n,
			 size_t chunk, int one_segment)
{
	size_t cap = count_segments(iov, n, chunk);
	uint64_t off = 0;
	size_t in_req = 0;	/* bytes in the open request */

	b->segs = calloc(cap, sizeof(*b->segs));
	b->reqs = calloc(cap, sizeof(*b->reqs));
	if (!b->segs || !b->reqs)
		return -ENOMEM;
	for (size_t i = 0; i < n; i++) {
		const char *p = iov[i].iov_base;
		size_t left = iov[i].iov_len;

		while (left) {
			struct write_req *r;
			size_t take;

			if (!b->nr_reqs || in_req == chunk || one_segment ||
			    b->reqs[b->nr_reqs - 1].iovcnt == IOV_MAX) {
				r = &b->reqs[b->nr_reqs++];
				r->off = off;
				r->iov = &b->segs[b->nr_segs];
				r->buf_index = -1;
				in_req = 0;
			}
			r = &b->reqs[b->nr_reqs - 1];
			take = left < chunk - in_req ? left : chunk - in_req;
			b->segs[b->nr_segs].iov_base = (void *)p;
			b->segs[b->nr_segs].iov_len = take;
			b->nr_segs++;
			r->iovcnt++;
			p += take;
			left -= take;
			off += take;
			in_req += take;
		}
	}
	return 0;
}

static int by_base(const void *a, const void *b)
{
	uintptr_t x = (uintptr_t)((const struct iovec *)a)->iov_base;
	uintptr_t y = (uintptr_t)((const struct iovec *)b)->iov_base;

	return x < y ? -1 : x > y;
}

/*
 * The page spans covering all segments, merged where they touch, so a
 * region of full buffers registers as one span.
 */
static int plan_spans(struct batch *b)
{
	struct iovec *s = calloc(b->nr_segs ? b->nr_segs : 1, sizeof(*s));
	size_t n = 0;

	/* The machine's pages (not 4096: arm64 and ppc64 have larger ones),
	 * which are what a registration pins. */
	const uintptr_t page = (uintptr_t)sysconf(_SC_PAGESIZE);

	if (!s)
		return -ENOMEM;
	for (size_t i = 0; i < b->nr_segs; i++) {
		uintptr_t start = (uintptr_t)b->segs[i].iov_base & ~(page - 1);
		uintptr_t end = ((uintptr_t)b->segs[i].iov_base +
				 b->segs[i].iov_len + page - 1) & ~(page - 1);

		s[i].iov_base = (void *)start;
		s[i].iov_len = end - start;
	}
	qsort(s, b->nr_segs, sizeof(*s), by_base);
	for (size_t i = 0; i < b->nr_segs; i++) {
		uintptr_t start = (uintptr_t)s[i].iov_base;
		uintptr_t end = start + s[i].iov_len;
		struct iovec *last = n ? &s[n - 1] : NULL;
		uintptr_t last_end = last ? (uintptr_t)last->iov_base + last->iov_len : 0;

		if (last && start <= last_end &&
		    end - (uintptr_t)last->iov_base <= MAX_REGISTERED_SPAN) {
			if (end > last_end)
				last->iov_len = end - (uintptr_t)last->iov_base;
			continue;
		}
		s[n++] = s[i];
	}
	b->spans = s;
	b->nr_spans = n;
	return n > MAX_REGISTERED ? -E2BIG : 0;
}

/* The registered span holding [p, p+len). Spans are sorted, disjoint. */
static int span_of(const struct batch *b, const void *p, size_t len)
{
	size_t lo = 0, hi = b->nr_spans;
	uintptr_t a = (uintptr_t)p;

	while (lo < hi) {
		size_t mid = (lo + hi) / 2;
		uintptr_t start = (uintptr_t)b->spans[mid].iov_base;

		if (a < start)
			hi = mid;
		else if (a + len > start + b->spans[mid].iov_len)
			lo = mid + 1;
		else
			return (int)mid;
	}
	return -1;
}

static int register_spans(struct io_uring *ring, struct batch *b)
{
	int ret = plan_spans(b);

	if (ret)
		return ret;
	ret = io_uring_register_buffers(ring, b->spans, (unsigned)b->nr_spans);
	if (ret)
		return ret;
	for (size_t i = 0; i < b->nr_reqs; i++) {
		struct write_req *r = &b->reqs[i];

		r->buf_index = span_of(b, r->iov[0].iov_base, r->iov[0].iov_len);
	}
	return 0;
}

/* Where the writes go: a plain fd, or index 0 of the registered files. */
struct write_target {
	int fd;
	unsigned int flags;	/* IOSQE_FIXED_FILE when registered */
};

static void prep_req(struct io_uring *ring, const struct write_target *t,
		     struct write_req *r, size_t idx, bool async)
{
	int fd = t->fd;
	struct io_uring_sqe *sqe = io_uring_get_sqe(ring);

	if (r->buf_index >= 0)
		io_uring_prep_write_fixed(sqe, fd, r->iov[0].iov_base,
					  (unsigned)r->iov[0].iov_len, r->off,
					  r->buf_index);
	else
		io_uring_prep_writev(sqe, fd, r->iov, r->iovcnt, r->off);
	io_uring_sqe_set_data64(sqe, idx);
	/*
	 * A buffered write the filesystem can do without blocking runs
	 * inline in io_uring_submit(); IOSQE_ASYNC sends it to io-wq.
	 */
	io_uring_sqe_set_flags(sqe, t->flags | (async ? IOSQE_ASYNC : 0));
}

/* Drop the written bytes from the front of a request. */
static void advance_req(struct write_req *r, size_t done)
{
	r->off += done;
	while (done) {
		size_t step = done < r->iov->iov_len ? done : r->iov->iov_len;

		r->iov->iov_base = (char *)r->iov->iov_base + step;
		r->iov->iov_len -= step;
		done -= step;
		if (!r->iov->iov_len && r->iovcnt > 1) {
			r->iov++;
			r->iovcnt--;
		}
	}
}

/*
 * Queue request `next`; with idle work pending, first let the hook do the
 * work for its bytes and submit it alone, so the write copies bytes the
 * hook has just brought into the cache.
 */
static int queue_one(struct io_uring *ring, const struct write_target *fd,
		     struct batch *b,
		     size_t next, bool async, const struct uring_write_hooks *hooks,
		     bool *idle_work)
{
	struct write_req *r = &b->reqs[next];

	if (*idle_work)
		*idle_work = hooks->idle(hooks->ctx, r->off + req_bytes(r));
	prep_req(ring, fd, r, next, async);
	return *idle_work ? io_uring_submit(ring) : 0;
}

/* Handle one completion; a short write is queued again for the rest. */
static void complete_one(struct io_uring *ring, const struct write_target *fd,
			 struct batch *b,
			 struct io_uring_cqe *cqe, size_t *inflight, int *error,
			 struct uring_write_report *rep)
{
	struct write_req *r = &b->reqs[io_uring_cqe_get_data64(cqe)];
	int ret = cqe->res;

	io_uring_cqe_seen(ring, cqe);
	(*inflight)--;
	if (ret <= 0) {
		if (!*error)
			*error = ret < 0 ? ret : -EIO;
		return;
	}
	rep->bytes += (size_t)ret;
	if ((size_t)ret < req_bytes(r)) {
		rep->short_writes++;
		advance_req(r, (size_t)ret);
		if (!*error) {
			prep_req(ring, fd, r, (size_t)(r - b->reqs), false);
			(*inflight)++;
			rep->sqes++;
		}
	}
}

/*
 * Keep up to depth requests in flight until all are done or one fails.
 * After a failure nothing new is submitted; the ones in flight drain.
 */
static int run_requests(struct io_uring *ring, const struct write_target *fd,
			struct batch *b,
			unsigned int depth, bool async,
			const struct uring_write_hooks *hooks,
			struct uring_write_report *rep)
{
	bool idle_work = hooks && hooks->idle;
	size_t next = 0, inflight = 0;
	int error = 0;

	while ((!error && next < b->nr_reqs) || inflight) {
		struct io_uring_cqe *cqe;
		int ret = 0;

		while (!error && ret >= 0 && next < b->nr_reqs && inflight < depth) {
			ret = queue_one(ring, fd, b, next, async, hooks, &idle_work);
			next++;
			inflight++;
			rep->sqes++;
		}
		if (ret >= 0 || ret == -EINTR)
			ret = io_uring_submit_and_wait(ring, 1);
		if (ret < 0 && ret != -EINTR)
			return error ? error : ret;	/* the ring is unusable */
		while (io_uring_peek_cqe(ring, &cqe) == 0)
			complete_one(ring, fd, b, cqe, &inflight, &error, rep);
	}
	return error;
}

/* Why io_uring_register_buffers said no, in words. */
static const char *registration_refused(int err)
{
	switch (-err) {
	case E2BIG: return "more than 16384 buffer spans to register";
	case EFAULT: return "io_uring pins registered buffers writable and the mapping is read-only (EFAULT)";
	case ENOMEM: return "not enough locked memory to register the buffers (ENOMEM, see RLIMIT_MEMLOCK)";
	case EOPNOTSUPP: return "this kernel does not register file-backed memory (EOPNOTSUPP)";
	}
	return strerror(-err);
}

static void free_batch(struct batch *b)
{
	free(b->segs);
	free(b->reqs);
	free(b->spans);
}

int uring_write_pieces(struct io_uring *ring, int fd, const struct iovec *iov,
		       size_t n, const struct uring_write_opts *opts,
		       const struct uring_write_hooks *hooks,
		       struct uring_write_report *rep)
{
	int fixed = opts->mode == URING_WRITE_FIXED;
	struct write_target target = { .fd = fd };
	struct batch b = { 0 };
	int ret;

	/* registered file: no file table lookup per request */
	if (opts->register_file && io_uring_register_files(ring, &fd, 1) == 0) {
		target.fd = 0;
		target.flags = IOSQE_FIXED_FILE;
	}
	ret = plan_requests(&b, iov, n, opts->chunk_bytes, fixed);
	if (!ret && fixed) {
		int reg = register_spans(ring, &b);

		if (reg) {
			/* e.g. EFAULT for a read-only mapping, ENOMEM (memlock) */
			rep->fallback = registration_refused(reg);
			fixed = 0;
			free_batch(&b);
			memset(&b, 0, sizeof(b));
			ret = plan_requests(&b, iov, n, opts->chunk_bytes, 0);
		}
	}
	rep->mode_used = fixed ? URING_WRITE_FIXED : URING_WRITE_VECTORED;
	if (!ret)
		ret = run_requests(ring, &target, &b, opts->queue_depth, opts->async, hooks, rep);
	if (fixed)
		io_uring_unregister_buffers(ring);
	if (target.flags)
		io_uring_unregister_files(ring);
	free_batch(&b);
	return ret;
}
