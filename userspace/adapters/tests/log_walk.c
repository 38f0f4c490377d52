// SPDX-License-Identifier: MIT
/*
 * log_walk.c - decode buffer bytes with the layouts of uapi fdr_log.h.
 * Every length is checked against the extents: a torn or misframed
 * record is reported, never read past.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/fdr_log.h>
#include <fdr_bytes.h>

#include "log_walk.h"

static int push(struct walk *w, struct rec r)
{
	struct rec *p = realloc(w->recs, (w->n + 1) * sizeof(*p));

	if (!p)
		return -1;
	w->recs = p;
	w->recs[w->n++] = r;
	return 0;
}

static int decode_metadata(struct walk *w, const uint8_t *b, size_t left,
			   size_t *used, int buffer, uint64_t *tsc)
{
	const uint8_t *d = b + 1;
	struct rec r = { .kind = b[0] >> 1, .buffer = buffer };

	*used = FDR_METADATA_SIZE;
	switch (r.kind) {
	case FDR_MD_NEW_BUFFER:
		r.value = (uint32_t)fdr__get_u32(d + FDR_MD_NEW_BUFFER_TID);
		break;
	case FDR_MD_NEW_CPU_ID:
		r.value = (uint16_t)(d[0] | d[1] << 8);
		*tsc = fdr__get_u64(d + FDR_MD_NEW_CPU_ID_TSC);
		break;
	case FDR_MD_TSC_WRAP:
		r.value = *tsc = fdr__get_u64(d + FDR_MD_TSC_WRAP_TSC);
		break;
	case FDR_MD_WALLTIME:
	case FDR_MD_CALL_ARGUMENT:
		r.value = fdr__get_u64(d);
		break;
	case FDR_MD_CUSTOM_EVENT: {
		int32_t size = fdr__get_s32(d + FDR_MD_CUSTOM_EVENT_SIZE);

		if (size <= 0 || (size_t)size > left - FDR_METADATA_SIZE) {
			snprintf(w->error, sizeof(w->error),
				 "custom event of %d bytes overruns the extents",
				 size);
			return -1;
		}
		r.value = (uint64_t)size;
		r.payload = b + FDR_METADATA_SIZE;
		r.payload_len = (size_t)size;
		*used += (size_t)size;
		break;
	}
	default:
		snprintf(w->error, sizeof(w->error),
			 "metadata kind %d is not one a v2 writer emits", r.kind);
		return -1;
	}
	return push(w, r);
}

static int decode_buffer(struct walk *w, const uint8_t *b, uint64_t extents,
			 int buffer)
{
	uint64_t tsc = 0;
	size_t off = 0;

	while (off < extents) {
		size_t left = extents - off, used;

		if (b[off] & 1) {
			if (left < FDR_METADATA_SIZE)
				goto torn;
			if (decode_metadata(w, b + off, left, &used, buffer, &tsc))
				return -1;
		} else {
			uint32_t word0;

			if (left < FDR_FUNCTION_SIZE)
				goto torn;
			word0 = fdr__get_u32(b + off);
			tsc += fdr__get_u32(b + off + 4);
			used = FDR_FUNCTION_SIZE;
			if (push(w, (struct rec){ .kind = REC_FN(FDR_FN_KIND(word0)),
					.fid = FDR_FN_ID(word0), .tsc = tsc,
					.buffer = buffer }))
				return -1;
		}
		off += used;
	}
	return 0;
torn:
	snprintf(w->error, sizeof(w->error),
		 "buffer %d: record cut by the extents at byte %zu", buffer, off);
	return -1;
}

static int by_seq(const void *a, const void *b)
{
	const struct fdr_buffer_desc *x = *(const struct fdr_buffer_desc *const *)a;
	const struct fdr_buffer_desc *y = *(const struct fdr_buffer_desc *const *)b;

	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

int walk_region(struct walk *w, const struct fdr_control *c)
{
	const struct fdr_buffer_desc *descs =
		(const void *)((const char *)c + c->descs_offset);
	const struct fdr_buffer_desc *order[64];
	int n = 0;

	memset(w, 0, sizeof(*w));
	for (uint32_t i = 0; i < c->nr_buffers && n < 64; i++)
		if (descs[i].generation == c->generation && descs[i].extents)
			order[n++] = &descs[i];
	qsort(order, (size_t)n, sizeof(order[0]), by_seq);
	for (int k = 0; k < n; k++) {
		size_t idx = (size_t)(order[k] - descs);
		const uint8_t *buf = (const uint8_t *)c + c->control_size +
				     idx * c->buffer_size;

		if (order[k]->extents > c->buffer_size) {
			snprintf(w->error, sizeof(w->error),
				 "buffer %zu: extents %llu exceed the buffer size",
				 idx, (unsigned long long)order[k]->extents);
			return -1;
		}
		w->owner_pid[k] = order[k]->owner_pid;
		if (decode_buffer(w, buf, order[k]->extents, k))
			return -1;
	}
	w->nbuffers = n;
	return 0;
}

void walk_free(struct walk *w)
{
	free(w->recs);
	w->recs = NULL;
	w->n = 0;
}

size_t walk_count_calls(const struct fdr_control *c)
{
	struct walk w = { 0 };
	size_t n = 0;

	if (walk_region(&w, c) == 0)
		for (size_t i = 0; i < w.n; i++)
			n += w.recs[i].kind >= REC_FN_BASE;
	walk_free(&w);
	return n;
}

long walk_find(const struct walk *w, size_t from, int kind)
{
	for (size_t i = from; i < w->n; i++)
		if (w->recs[i].kind == kind)
			return (long)i;
	return -1;
}
