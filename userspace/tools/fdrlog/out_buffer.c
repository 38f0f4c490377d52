// SPDX-License-Identifier: MIT
/* out_buffer.c - see out_buffer.h. */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <unistd.h>
#include "out_buffer.h"

void out_init(struct out_buffer *o, int fd)
{
	o->fd = fd;
	o->error = 0;
	o->len = 0;
}

void out_flush(struct out_buffer *o)
{
	size_t done = 0;

	while (done < o->len && !o->error) {
		ssize_t w = write(o->fd, o->buf + done, o->len - done);

		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			o->error = w < 0 ? errno : EIO;
		else
			done += (size_t)w;
	}
	o->len = 0;
}

void out_bytes_slow(struct out_buffer *o, const void *p, size_t n)
{
	const char *s = p;

	while (n) {
		size_t room = OUT_BUFFER_SIZE - o->len, k = n < room ? n : room;

		memcpy(o->buf + o->len, s, k);
		o->len += k;
		s += k;
		n -= k;
		if (o->len == OUT_BUFFER_SIZE)
			out_flush(o);
	}
}

void out_u64(struct out_buffer *o, uint64_t v)
{
	char tmp[20], *p = tmp + sizeof(tmp);
	size_t n;

	do {
		*--p = (char)('0' + v % 10);
		v /= 10;
	} while (v);
	n = (size_t)(tmp + sizeof(tmp) - p);
	memcpy(out_reserve(o, n), p, n);
	o->len += n;
}

void out_i64(struct out_buffer *o, int64_t v)
{
	if (v < 0) {
		out_char(o, '-');
		out_u64(o, -(uint64_t)v);
	} else {
		out_u64(o, (uint64_t)v);
	}
}

void out_printf(struct out_buffer *o, const char *fmt, ...)
{
	char tmp[512];
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(tmp, sizeof(tmp), fmt, ap);
	va_end(ap);
	if (n > 0)
		out_bytes(o, tmp, (size_t)n < sizeof(tmp) ? (size_t)n : sizeof(tmp) - 1);
}
