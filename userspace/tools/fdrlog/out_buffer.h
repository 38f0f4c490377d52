/* SPDX-License-Identifier: MIT */
/*
 * out_buffer.h - buffered output to a file descriptor, with integer
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
	int fd;
	int error;		/* first errno from write(), 0 if none */
	size_t len;
	char buf[OUT_BUFFER_SIZE];
};

void out_init(struct out_buffer *o, int fd);
void out_flush(struct out_buffer *o);
/* Make room for n bytes (n <= OUT_BUFFER_SIZE). */
static inline char *out_reserve(struct out_buffer *o, size_t n)
{
	if (o->len + n > OUT_BUFFER_SIZE)
		out_flush(o);
	return o->buf + o->len;
}

void out_bytes_slow(struct out_buffer *o, const void *p, size_t n);
static inline void out_bytes(struct out_buffer *o, const void *p, size_t n)
{
	if (n <= 256) {
		memcpy(out_reserve(o, n), p, n);
		o->len += n;
	} else {
		out_bytes_slow(o, p, n);
	}
}
static inline void out_str(struct out_buffer *o, const char *s) { out_bytes(o, s, strlen(s)); }
static inline void out_char(struct out_buffer *o, char c) { *out_reserve(o, 1) = c; o->len++; }

void out_u64(struct out_buffer *o, uint64_t v);
void out_i64(struct out_buffer *o, int64_t v);
void out_printf(struct out_buffer *o, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

#endif
