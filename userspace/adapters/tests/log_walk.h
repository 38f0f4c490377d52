/* SPDX-License-Identifier: MIT */
/*
 * log_walk.h - decode the records of a region's buffers into a flat list,
 * for tests that check what a traced program recorded.
 */
#ifndef ADAPTERS_LOG_WALK_H
#define ADAPTERS_LOG_WALK_H

#include <stddef.h>
#include <stdint.h>
#include <linux/fdr.h>

/* A decoded record.  kind is REC_FN_* for function records, or the
 * metadata kind (enum fdr_metadata_kind) for metadata. */
enum { REC_FN_BASE = 100 };
#define REC_FN(k)	(REC_FN_BASE + (k))

struct rec {
	int kind;
	uint32_t fid;		/* function records */
	uint64_t value;		/* tid, cpu, tsc, argument, extents, size */
	uint64_t tsc;		/* function records: the TSC the deltas give,
				 * from the buffer's last NewCPUId or TSCWrap */
	const uint8_t *payload;	/* custom event bytes */
	size_t payload_len;
	int buffer;		/* index of the buffer in acquisition order */
};

struct walk {
	struct rec *recs;
	size_t n;
	int nbuffers;
	pid_t owner_pid[64];	/* per buffer, in acquisition order */
	char error[200];	/* set when the bytes do not decode */
};

/* Decode every buffer of the current generation with extents > 0, in
 * seq order.  Returns 0, or -1 with w->error set. */
int walk_region(struct walk *w, const struct fdr_control *c);
void walk_free(struct walk *w);

/* How many function records (Enter, Exit, TailExit, EnterArg) the
 * region's current generation holds; 0 when its bytes do not decode. */
size_t walk_count_calls(const struct fdr_control *c);

/* Index of the first record at or after from with this kind, or -1. */
long walk_find(const struct walk *w, size_t from, int kind);

#endif /* ADAPTERS_LOG_WALK_H */
