// SPDX-License-Identifier: MIT
/*
 * owner_note.c - validate and decode a buffer's owner note.
 *
 * The note is copied out of the shared mapping once, then every check and
 * every use reads the copy: a writer changing the bytes meanwhile can make
 * the note wrong (its own process's name), never make fdrd read outside
 * the buffer or take a half-checked value.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

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

/*
 * The note out of the buffer's last k bytes (last: a copy of them, or the
 * mapping itself), once; 0 if there is none.  k = min(span, the largest
 * note) holds any note the tail may describe.
 */
static uint32_t copy_tail(const struct log_buffer *b, const uint8_t *last, size_t k,
			  uint8_t copy[FDR_OWNER_NOTE_MAX])
{
	struct fdr_owner_note_tail tail;

	memcpy(&tail, last + k - sizeof(tail), sizeof(tail));
	if (!tail_ok(&tail, b->span, b->extents))
		return 0;
	memcpy(copy, last + k - tail.size, tail.size);
	return tail.size;
}

static size_t tail_bytes(const struct log_buffer *b)
{
	return b->span < FDR_OWNER_NOTE_MAX ? (size_t)b->span : FDR_OWNER_NOTE_MAX;
}

static uint32_t copy_out(const struct log_buffer *b, uint8_t copy[FDR_OWNER_NOTE_MAX])
{
	size_t k = tail_bytes(b);

	if (!b->data || b->span < FDR_OWNER_NOTE_MIN * 8)
		return 0;
	return copy_tail(b, b->data + b->span - k, k, copy);
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

/* A checked copy of the note's size bytes at copy, or NULL. */
static uint8_t *dup_checked(const struct log_buffer *b, uint32_t generation,
			    const uint8_t *copy, uint32_t size, uint32_t *len)
{
	struct owner_info info;
	uint8_t *dup;

	if (!size || !decode(copy, size, b, generation, &info))
		return NULL;
	dup = malloc(size);
	if (dup) {
		memcpy(dup, copy, size);
		*len = size;
	}
	return dup;
}

uint8_t *owner_note_dup(const struct log_buffer *b, uint32_t generation,
			uint32_t *len)
{
	uint8_t copy[FDR_OWNER_NOTE_MAX];

	return dup_checked(b, generation, copy, copy_out(b, copy), len);
}

static int read_full(int fd, uint8_t *to, size_t len, uint64_t off)
{
	while (len) {
		ssize_t r = pread(fd, to, len, (off_t)off);

		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			return -1;	/* unreadable, or cut short by a truncate */
		to += r;
		off += (uint64_t)r;
		len -= (size_t)r;
	}
	return 0;
}

uint8_t *owner_note_dup_fd(const struct log_buffer *b, uint32_t generation,
			   int fd, uint64_t end, uint32_t *len)
{
	uint8_t last[FDR_OWNER_NOTE_MAX], copy[FDR_OWNER_NOTE_MAX];
	size_t k = tail_bytes(b);

	if (b->span < FDR_OWNER_NOTE_MIN * 8 || end < k || read_full(fd, last, k, end - k))
		return NULL;
	return dup_checked(b, generation, copy, copy_tail(b, last, k, copy), len);
}
