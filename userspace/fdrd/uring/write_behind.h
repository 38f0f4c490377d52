/* SPDX-License-Identifier: MIT */
/*
 * write_behind.h - pwritev() calls made by a thread of their own while the
 * caller fills the next buffer: a small ring of buffers ("slots"), each
 * filled by the caller, then handed to the writer thread, which writes it
 * at its file offset and gives it back.
 *
 * fdr record's one-shot flush reads, validates and writes every byte; with
 * the writes behind it, the reading and validating of one slot overlaps
 * the copy of the previous one into the page cache (bench/flush, run N).
 * Once handed over, a slot is the writer's: the caller does not touch it
 * until it comes round again, so what the caller checked is what is
 * written.
 * On a single CPU (or when the thread cannot start) each slot is written
 * by the caller as it is handed over.
 */
#ifndef FDRD_WRITE_BEHIND_H
#define FDRD_WRITE_BEHIND_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/uio.h>

#include "uring_writer.h"

struct write_behind_slot {
	struct iovec call[IOV_MAX];
	const void *tag[IOV_MAX];	/* the caller's, per piece (or NULL) */
	size_t k;		/* pieces in call */
	size_t used;		/* bytes of buf taken */
	uint64_t bytes;		/* bytes in call */
	uint64_t off;		/* file offset of call[0] */
	uint8_t *buf;		/* cap bytes, the caller's to fill */
	size_t cap;
};

struct write_behind;

/* Slots of cap bytes each, writing to fd from offset 0.  0, or -ENOMEM
 * (before anything is written). */
int write_behind_open(struct write_behind **wb, int fd, size_t cap);

/* The slot the caller fills now (empty when returned by open or next). */
struct write_behind_slot *write_behind_slot(struct write_behind *wb);

/*
 * Hand the current slot over (nothing if it is empty) and make the next
 * one current, waiting for it to be written if every slot is in flight.
 * Returns the first write error so far (the caller stops filling), or 0.
 */
int write_behind_next(struct write_behind *wb);

/* Whether any slot has been handed over yet. */
bool write_behind_started(const struct write_behind *wb);

/*
 * Hand over the current slot if commit (else drop it: the caller failed
 * while filling it, and bytes it did not read or check are never
 * written), wait until everything handed over is written, add the
 * writer's counts to rep, free wb.  Returns the first write error, or 0.
 */
int write_behind_close(struct write_behind *wb, bool commit,
		       struct uring_write_report *rep);

#endif /* FDRD_WRITE_BEHIND_H */
