/* SPDX-License-Identifier: MIT */
/*
 * owner_note.h - who wrote a buffer, from the note libfdr leaves at its
 * end (uapi/linux/fdr.h, "Owner note"), validated: the bytes come from
 * pages any writer can scribble on.
 */
#ifndef FDRD_OWNER_NOTE_H
#define FDRD_OWNER_NOTE_H

#include <stdbool.h>
#include <stdint.h>

#include <linux/fdr.h>

#include "log_layout.h"

struct owner_info {
	char comm[17];				/* NUL-terminated */
	char exe[FDR_OWNER_NOTE_MAX + 1];	/* NUL-terminated */
	bool exe_truncated;
};

/*
 * Read the note of buffer b of generation `generation` (b->span bytes
 * mapped at b->data).  true and *out filled only if the note is whole and
 * consistent: magic, size (multiple of 8, within the limits, not under the
 * records), the acquisition (seq, generation) and the ids of b's
 * descriptor, lengths, no NUL in the path.
 */
bool owner_note_read(const struct log_buffer *b, uint32_t generation,
		     struct owner_info *out);

/*
 * b's note, checked as owner_note_read() does, in a malloc'ed copy of
 * *len bytes for a struct log_buffer's note_copy (the buffer itself is
 * about to be handed back); NULL if it has no valid note.
 */
uint8_t *owner_note_dup(const struct log_buffer *b, uint32_t generation,
			uint32_t *len);

/*
 * The same, the buffer's last bytes read with pread() from fd, where the
 * byte just past the buffer (b->data + b->span) lies at offset end: a
 * flush that reads a region through its descriptor (uring_source.c) then
 * never touches the mapping's pages, whose first touch is slow on some
 * hypervisors.
 */
uint8_t *owner_note_dup_fd(const struct log_buffer *b, uint32_t generation,
			   int fd, uint64_t end, uint32_t *len);

#endif /* FDRD_OWNER_NOTE_H */
