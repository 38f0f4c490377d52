// SPDX-License-Identifier: MIT
/* pb_writer.c - protobuf wire-format encoding (pb_writer.h). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "pb_writer.h"

enum { WIRE_VARINT = 0, WIRE_LEN = 2 };

void pb_init(struct pb_msg *m)
{
	memset(m, 0, sizeof(*m));
}

void pb_free(struct pb_msg *m)
{
	free(m->buf);
	pb_init(m);
}

/* Room for n more bytes; 0, or -1 with m->error set. */
static int room(struct pb_msg *m, size_t n)
{
	size_t cap = m->cap ? m->cap : 256;
	uint8_t *p;

	if (m->error)
		return -1;
	if (m->len + n <= m->cap)
		return 0;
	while (cap < m->len + n) {
		if (cap > SIZE_MAX / 2)
			goto fail;
		cap *= 2;
	}
	p = realloc(m->buf, cap);
	if (!p)
		goto fail;
	m->buf = p;
	m->cap = cap;
	return 0;
fail:
	m->error = ENOMEM;
	return -1;
}

static size_t varint_size(uint64_t v)
{
	size_t n = 1;

	while (v >= 0x80) {
		v >>= 7;
		n++;
	}
	return n;
}

static void put_varint(uint8_t *p, uint64_t v)
{
	while (v >= 0x80) {
		*p++ = (uint8_t)(v | 0x80);
		v >>= 7;
	}
	*p = (uint8_t)v;
}

static void raw_varint(struct pb_msg *m, uint64_t v)
{
	if (room(m, 10))
		return;
	put_varint(m->buf + m->len, v);
	m->len += varint_size(v);
}

void pb_varint(struct pb_msg *m, uint32_t field, uint64_t v)
{
	raw_varint(m, (uint64_t)field << 3 | WIRE_VARINT);
	raw_varint(m, v);
}

void pb_bytes(struct pb_msg *m, uint32_t field, const void *p, size_t n)
{
	raw_varint(m, (uint64_t)field << 3 | WIRE_LEN);
	raw_varint(m, n);
	if (n && !room(m, n)) {
		memcpy(m->buf + m->len, p, n);
		m->len += n;
	}
}

void pb_string(struct pb_msg *m, uint32_t field, const char *s)
{
	pb_bytes(m, field, s, strlen(s));
}

void pb_begin(struct pb_msg *m, uint32_t field)
{
	raw_varint(m, (uint64_t)field << 3 | WIRE_LEN);
	if (m->depth == PB_MAX_DEPTH) {	/* a bug of the caller, not of the log */
		m->error = EOVERFLOW;
		return;
	}
	m->open[m->depth++] = m->len;
}

void pb_end(struct pb_msg *m)
{
	size_t body, n, k;

	if (m->depth == 0) {
		m->error = EOVERFLOW;
		return;
	}
	body = m->open[--m->depth];
	if (m->error)
		return;
	n = m->len - body;
	k = varint_size(n);
	if (room(m, k))
		return;
	memmove(m->buf + body + k, m->buf + body, n);
	put_varint(m->buf + body, n);
	m->len += k;
}
