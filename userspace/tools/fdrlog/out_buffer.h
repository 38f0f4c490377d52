/* SPDX-License-Identifier: MIT */
/*
 * out_buffer.h - buffered output, to a file descriptor or to a growing
 * memory block (fd < 0: what parallel formatting fills), with integer
 * formatting by hand: converting millions of records is mostly printing
 * integers, and stdio's printf is the bottleneck there.
 */
#ifndef FDRLOG_OUT_BUFFER_H
#define FDRLOG_OUT_BUFFER_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#define OUT_BUFFER_SIZE (1u << 20)

struct out_buffer {
	int fd;			/* < 0: memory mode, the buffer grows */
	int error;		/* first errno (write or ENOMEM), 0 if none */
	size_t len, cap;
	char *buf;
};

/* 0, or -1 (ENOMEM) if the buffer cannot be allocated. */
int out_init(struct out_buffer *o, int fd);
void out_release(struct out_buffer *o);
void out_flush(struct out_buffer *o);
/*
 * Make room for n <= OUT_BUFFER_SIZE more bytes: write the buffer out, or
 * grow it in memory mode (if that fails: error = ENOMEM, contents dropped).
 */
void out_make_room(struct out_buffer *o, size_t n);
void out_bytes_slow(struct out_buffer *o, const void *p, size_t n);

static inline char *out_reserve(struct out_buffer *o, size_t n)
{
	if (o->len + n > o->cap)
		out_make_room(o, n);
	return o->buf + o->len;
}

static inline void out_bytes(struct out_buffer *o, const void *p, size_t n)
{
	if (n > 4096) {
		out_bytes_slow(o, p, n);
		return;
	}
	memcpy(out_reserve(o, n), p, n);
	o->len += n;
}
static inline void out_str(struct out_buffer *o, const char *s) { out_bytes(o, s, strlen(s)); }
static inline void out_char(struct out_buffer *o, char c) { *out_reserve(o, 1) = c; o->len++; }

/* n bytes c (a tree's indentation: any depth, in bounded steps). */
void out_fill(struct out_buffer *o, char c, size_t n);
void out_u64(struct out_buffer *o, uint64_t v);
void out_i64(struct out_buffer *o, int64_t v);
void out_printf(struct out_buffer *o, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

#endif
