// SPDX-License-Identifier: MIT
/* out_buffer.c - see out_buffer.h. */
#include <errno.h>
#include <stdbool.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
#include "out_buffer.h"

int out_init(struct out_buffer *o, int fd)
{
	o->fd = fd;
	o->error = 0;
	o->len = 0;
	o->cap = OUT_BUFFER_SIZE;
	o->buf = malloc(o->cap);
	if (!o->buf) {
		o->error = ENOMEM;
		o->cap = 0;
		return -1;
	}
	return 0;
}

void out_release(struct out_buffer *o)
{
	free(o->buf);
	o->buf = NULL;
	o->cap = o->len = 0;
}

void out_flush(struct out_buffer *o)
{
	size_t done = 0;

	if (o->fd < 0)
		return;
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

/* Memory mode: at least len + n bytes; false (ENOMEM) if impossible. */
static bool grow(struct out_buffer *o, size_t n)
{
	size_t cap = o->cap * 2;
	char *b;

	while (cap < o->len + n)
		cap *= 2;
	b = realloc(o->buf, cap);
	if (!b) {
		o->error = ENOMEM;
		return false;
	}
	o->buf = b;
	o->cap = cap;
	return true;
}

void out_make_room(struct out_buffer *o, size_t n)
{
	if (o->fd >= 0)
		out_flush(o);
	else if (!grow(o, n))
		o->len = 0;	/* the output is lost; keep writing in bounds */
}

void out_bytes_slow(struct out_buffer *o, const void *p, size_t n)
{
	const char *s = p;

	if (o->fd < 0) {
		if (o->len + n <= o->cap || grow(o, n)) {
			memcpy(o->buf + o->len, s, n);
			o->len += n;
		}
		return;
	}
	while (n) {
		size_t room = o->cap - o->len, k = n < room ? n : room;

		memcpy(o->buf + o->len, s, k);
		o->len += k;
		s += k;
		n -= k;
		if (o->len == o->cap)
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

void out_fill(struct out_buffer *o, char c, size_t n)
{
	while (n) {
		size_t k = n < 4096 ? n : 4096;

		memset(out_reserve(o, k), c, k);
		o->len += k;
		n -= k;
	}
}

void out_printf(struct out_buffer *o, const char *fmt, ...)
{
	char tmp[512], *big;
	va_list ap, again;
	int n;

	va_start(ap, fmt);
	va_copy(again, ap);
	n = vsnprintf(tmp, sizeof(tmp), fmt, ap);
	va_end(ap);
	if (n > 0 && (size_t)n < sizeof(tmp))
		out_bytes(o, tmp, (size_t)n);
	else if (n > 0 && (big = malloc((size_t)n + 1))) {	/* a long name: whole */
		vsnprintf(big, (size_t)n + 1, fmt, again);
		out_bytes(o, big, (size_t)n);
		free(big);
	} else if (n > 0) {
		o->error = o->error ? o->error : ENOMEM;
	}
	va_end(again);
}
