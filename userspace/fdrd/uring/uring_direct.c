// SPDX-License-Identifier: MIT
/*
 * uring_direct.c - writes through aligned, registered bounce buffers:
 * for O_DIRECT, or buffered (mode BOUNCE).
 *
 * The log's pieces start at offsets like 32 + 16 + ... that are never
 * block aligned, and O_DIRECT needs aligned file offsets, lengths and
 * memory; so every byte is copied into page-aligned chunks first.  The
 * chunks are registered once and written with WRITE_FIXED (the case where
 * registered buffers pay off).  The last chunk is padded to the block
 * size and the file truncated back to its real length.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "uring_internal.h"

/* Reads the pieces in file order, one chunk at a time. */
struct piece_cursor {
	const struct iovec *iov;
	size_t n, i, in;	/* piece i, in bytes into it */
};

static size_t cursor_copy(struct piece_cursor *c, char *dst, size_t want)
{
	size_t got = 0;

	while (got < want && c->i < c->n) {
		size_t avail = c->iov[c->i].iov_len - c->in;
		size_t take = avail < want - got ? avail : want - got;

		memcpy(dst + got, (const char *)c->iov[c->i].iov_base + c->in, take);
		got += take;
		c->in += take;
		if (c->in == c->iov[c->i].iov_len) {
			c->i++;
			c->in = 0;
		}
	}
	return got;
}

struct bounce {
	char *mem;		/* depth * chunk bytes */
	size_t chunk;
	unsigned int depth;
	unsigned int *free_slots;
	unsigned int nr_free;
	size_t *len;		/* bytes expected per slot (padded) */
	uint64_t *off;
	int registered;		/* chunks registered: WRITE_FIXED */
};

static int bounce_init(struct io_uring *ring, struct bounce *b,
		       const struct uring_write_opts *opts)
{
	struct iovec *reg;

	b->chunk = (opts->chunk_bytes + URING_DIRECT_ALIGN - 1) & ~(size_t)(URING_DIRECT_ALIGN - 1);
	b->depth = opts->queue_depth;
	if (posix_memalign((void **)&b->mem, URING_DIRECT_ALIGN, b->chunk * b->depth)) {
		b->mem = NULL;
		b->depth = 0;
		return -ENOMEM;
	}
	b->free_slots = calloc(b->depth, sizeof(*b->free_slots));
	b->len = calloc(b->depth, sizeof(*b->len));
	b->off = calloc(b->depth, sizeof(*b->off));
	reg = calloc(b->depth, sizeof(*reg));
	if (!b->free_slots || !b->len || !b->off || !reg) {
		free(reg);
		b->depth = 0;	/* nothing in flight to drain */
		return -ENOMEM;
	}
	for (unsigned int i = 0; i < b->depth; i++) {
		b->free_slots[b->nr_free++] = i;
		reg[i].iov_base = b->mem + (size_t)i * b->chunk;
		reg[i].iov_len = b->chunk;
	}
	b->registered = io_uring_register_buffers(ring, reg, b->depth) == 0;
	free(reg);
	return 0;
}

static void bounce_free(struct io_uring *ring, struct bounce *b)
{
	if (b->registered)
		io_uring_unregister_buffers(ring);
	free(b->mem);
	free(b->free_slots);
	free(b->len);
	free(b->off);
}

static void submit_slot(struct io_uring *ring, int fd, struct bounce *b,
			unsigned int slot)
{
	struct io_uring_sqe *sqe = io_uring_get_sqe(ring);
	char *p = b->mem + (size_t)slot * b->chunk;

	if (b->registered)
		io_uring_prep_write_fixed(sqe, fd, p, (unsigned)b->len[slot],
					  b->off[slot], (int)slot);
	else
		io_uring_prep_write(sqe, fd, p, (unsigned)b->len[slot], b->off[slot]);
	io_uring_sqe_set_data64(sqe, slot);
}

/*
 * Fill free chunks from the pieces and queue them.  The idle hook sees
 * each chunk's range just before the copy, so what it reads (fdrd
 * validates) is still in the cache when copied.
 */
static void fill_slots(struct io_uring *ring, int fd, struct bounce *b,
		       struct piece_cursor *cur, uint64_t *off, uint64_t total,
		       bool pad, const struct uring_write_hooks *hooks,
		       bool *idle_work, struct uring_write_report *rep)
{
	while (*off < total && b->nr_free) {
		unsigned int slot = b->free_slots[--b->nr_free];
		char *p = b->mem + (size_t)slot * b->chunk;
		size_t got, padded;

		if (*idle_work)
			*idle_work = hooks->idle(hooks->ctx, *off + b->chunk);
		got = cursor_copy(cur, p, b->chunk);
		padded = pad ? (got + URING_DIRECT_ALIGN - 1) & ~(size_t)(URING_DIRECT_ALIGN - 1) : got;

		memset(p + got, 0, padded - got);
		b->len[slot] = padded;
		b->off[slot] = *off;
		*off += got;
		submit_slot(ring, fd, b, slot);
		rep->sqes++;
	}
}

int uring_write_direct(struct io_uring *ring, int fd, const struct iovec *iov,
		       size_t n, uint64_t total,
		       const struct uring_write_opts *opts,
		       const struct uring_write_hooks *hooks,
		       struct uring_write_report *rep)
{
	struct piece_cursor cur = { .iov = iov, .n = n };
	bool pad = opts->mode == URING_WRITE_DIRECT;
	bool idle_work = hooks && hooks->idle;
	struct bounce b = { 0 };
	uint64_t off = 0;
	int error;

	rep->mode_used = opts->mode;
	error = bounce_init(ring, &b, opts);
	/* after an error, stop filling but drain what is in flight */
	while ((!error && off < total) || b.nr_free < b.depth) {
		struct io_uring_cqe *cqe;
		int ret;

		if (!error)
			fill_slots(ring, fd, &b, &cur, &off, total, pad, hooks,
				   &idle_work, rep);
		ret = io_uring_submit_and_wait(ring, 1);
		if (ret < 0 && ret != -EINTR) {
			error = ret;
			break;	/* the ring is unusable; exit cancels */
		}
		while (io_uring_peek_cqe(ring, &cqe) == 0) {
			unsigned int slot = (unsigned int)io_uring_cqe_get_data64(cqe);
			int res = cqe->res;

			io_uring_cqe_seen(ring, cqe);
			if ((res < 0 || (size_t)res != b.len[slot]) && !error)
				error = res < 0 ? res : -EIO;
			else if (res > 0)
				rep->bytes += (size_t)res;
			b.free_slots[b.nr_free++] = slot;
		}
	}
	/* the padding of the last chunk goes */
	if (!error && pad && ftruncate(fd, (off_t)total))
		error = -errno;
	if (rep->bytes > total)
		rep->bytes = total;
	bounce_free(ring, &b);
	return error;
}
