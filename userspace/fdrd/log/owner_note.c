// SPDX-License-Identifier: MIT
/*
 * owner_note.c - validate and decode a buffer's owner note.
 *
 * The note is copied out of the shared mapping once, then every check and
 * every use reads the copy: a writer changing the bytes meanwhile can make
 * the note wrong (its own process's name), never make fdrd read outside
 * the buffer or take a half-checked value.
 */
#include <stdlib.h>
#include <string.h>

#include "owner_note.h"

static bool tail_ok(const struct fdr_owner_note_tail *t, uint64_t span,
		    uint64_t extents)
{
	uint64_t limit = span / 8 < FDR_OWNER_NOTE_MAX ? span / 8 : FDR_OWNER_NOTE_MAX;

	return t->magic == FDR_OWNER_NOTE_MAGIC && t->size % 8 == 0 &&
	       t->size >= FDR_OWNER_NOTE_MIN && t->size <= limit &&
	       extents <= span - t->size;
}

static bool note_matches(const struct fdr_owner_note *n, uint32_t size,
			 const struct log_buffer *b, uint32_t generation)
{
	return n->seq == b->seq && n->generation == generation &&
	       n->pid == b->owner_pid && n->tid == b->owner_tid &&
	       (n->flags & ~FDR_OWNER_EXE_TRUNCATED) == 0 &&
	       n->exe_len <= size - FDR_OWNER_NOTE_MIN &&
	       memchr(n->comm, '\0', sizeof(n->comm)) != NULL;
}

/* Check and decode the note copied out of the buffer (size bytes). */
static bool decode(const uint8_t *copy, uint32_t size, const struct log_buffer *b,
		   uint32_t generation, struct owner_info *out)
{
	struct fdr_owner_note_tail tail;
	struct fdr_owner_note n;
	const char *exe;

	if (size < FDR_OWNER_NOTE_MIN || size > FDR_OWNER_NOTE_MAX)
		return false;
	memcpy(&tail, copy + size - sizeof(tail), sizeof(tail));
	memcpy(&n, copy, sizeof(n));
	if (tail.size != size || tail.magic != FDR_OWNER_NOTE_MAGIC ||
	    !note_matches(&n, size, b, generation))
		return false;
	exe = (const char *)copy + sizeof(n);
	if (memchr(exe, '\0', n.exe_len))
		return false;
	memcpy(out->comm, n.comm, sizeof(n.comm));
	out->comm[sizeof(n.comm)] = '\0';
	memcpy(out->exe, exe, n.exe_len);
	out->exe[n.exe_len] = '\0';
	out->exe_truncated = n.flags & FDR_OWNER_EXE_TRUNCATED;
	return true;
}

/* The note's bytes out of the shared buffer, once; 0 if there is none. */
static uint32_t copy_out(const struct log_buffer *b, uint8_t copy[FDR_OWNER_NOTE_MAX])
{
	struct fdr_owner_note_tail tail;

	if (!b->data || b->span < FDR_OWNER_NOTE_MIN * 8)
		return 0;
	memcpy(&tail, b->data + b->span - sizeof(tail), sizeof(tail));
	if (!tail_ok(&tail, b->span, b->extents))
		return 0;
	memcpy(copy, b->data + b->span - tail.size, tail.size);
	return tail.size;
}

bool owner_note_read(const struct log_buffer *b, uint32_t generation,
		     struct owner_info *out)
{
	uint8_t copy[FDR_OWNER_NOTE_MAX];
	uint32_t size;

	if (b->note_copy)
		return decode(b->note_copy, b->note_len, b, generation, out);
	size = copy_out(b, copy);
	return size && decode(copy, size, b, generation, out);
}

uint8_t *owner_note_dup(const struct log_buffer *b, uint32_t generation,
			uint32_t *len)
{
	uint8_t copy[FDR_OWNER_NOTE_MAX], *dup;
	struct owner_info info;
	uint32_t size = copy_out(b, copy);

	if (!size || !decode(copy, size, b, generation, &info))
		return NULL;
	dup = malloc(size);
	if (dup) {
		memcpy(dup, copy, size);
		*len = size;
	}
	return dup;
}
