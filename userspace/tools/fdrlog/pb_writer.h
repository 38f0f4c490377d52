/* SPDX-License-Identifier: MIT */
/*
 * pb_writer.h - the protobuf wire format, as much as the Perfetto writer
 * needs: varints, fixed-free scalar fields and length-delimited fields
 * (strings, bytes, nested messages).  A message is built in a growable
 * scratch buffer; a nested message's length is known only at its end, so
 * pb_end() moves the body up by the length's varint size instead of
 * reserving a padded length (Perfetto's protozero does that; it would
 * cost 3 bytes per nesting on every event).
 */
#ifndef FDRLOG_PB_WRITER_H
#define FDRLOG_PB_WRITER_H

#include <stddef.h>
#include <stdint.h>

#define PB_MAX_DEPTH 8

struct pb_msg {
	uint8_t *buf;
	size_t len, cap;
	int error;			/* ENOMEM once a grow failed; writes then drop */
	size_t open[PB_MAX_DEPTH];	/* body offsets of the messages begun */
	int depth;
};

void pb_init(struct pb_msg *m);
void pb_free(struct pb_msg *m);
/* Empty it for the next message (keeps the memory). */
static inline void pb_reset(struct pb_msg *m) { m->len = 0; m->depth = 0; }

void pb_varint(struct pb_msg *m, uint32_t field, uint64_t v);
/* int32/int64 fields: a negative value is its 64-bit two's complement. */
static inline void pb_int(struct pb_msg *m, uint32_t field, int64_t v)
{
	pb_varint(m, field, (uint64_t)v);
}
void pb_bytes(struct pb_msg *m, uint32_t field, const void *p, size_t n);
void pb_string(struct pb_msg *m, uint32_t field, const char *s);
/* A nested message: pb_begin, its fields, pb_end. */
void pb_begin(struct pb_msg *m, uint32_t field);
void pb_end(struct pb_msg *m);

#endif
