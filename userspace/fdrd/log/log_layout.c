// SPDX-License-Identifier: MIT
/*
 * log_layout.c - choose the buffers of a log (current generation, extents
 * > 0, well-formed), order them by acquisition sequence and give every
 * piece its file offset (Documentation/format.md §1).
 *
 * The region is shared with writers we do not trust: the facts it is laid
 * out from are copied once and checked against the mapping's length
 * (layout_facts.c), and a descriptor's fields are read once each.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/uio.h>

#include <fdr_buffer_check.h>
#include "layout_facts.h"
#include "log_layout.h"

static void fill_header(const struct layout_facts *f, struct fdr_log_header *h)
{
	memset(h, 0, sizeof(*h));
	h->version = 2;
	h->type = FDR_LOG_TYPE_FDR;
	if (f->flags & FDR_CTL_CONSTANT_TSC)
		h->flags |= FDR_LOG_FLAG_CONSTANT_TSC;
	if (f->flags & FDR_CTL_NONSTOP_TSC)
		h->flags |= FDR_LOG_FLAG_NONSTOP_TSC;
	h->cycle_frequency = f->tsc_hz;
	h->buffer_size = f->buffer_size;
}

static int by_seq(const void *a, const void *b)
{
	const struct log_buffer *x = a, *y = b;

	if (x->seq != y->seq)
		return x->seq < y->seq ? -1 : 1;
	return x->index < y->index ? -1 : x->index > y->index;
}

static void note_problem(struct log_layout *l, const struct log_buffer *b,
			 const struct fdr__buffer_check *chk)
{
	struct log_problem *p = &l->problems[l->nr_problems++];

	p->index = b->index;
	p->seq = b->seq;
	p->extents = b->extents;
	p->kept = chk->valid_len;
	p->at = chk->bad_offset;
	p->what = chk->problem;
}

/*
 * Snapshot descriptor i into *b.  Returns 1 if it belongs in the log.
 * extents is load-acquired so the record bytes it covers are visible.
 * The records are not looked at here (log_layout_validate_step does).
 */
static int take_buffer(struct log_layout *l, const struct layout_facts *f,
		       const struct fdr_control *ctl, uint32_t i,
		       struct log_buffer *b)
{
	const struct fdr_buffer_desc *d = (const void *)((const uint8_t *)ctl +
					   f->descs_offset +
					   (uint64_t)i * FDR_BUFFER_DESC_SIZE);
	uint64_t extents = __atomic_load_n(&d->extents, __ATOMIC_ACQUIRE);

	if (extents == 0) {
		l->nr_empty++;
		return 0;
	}
	if (d->generation != f->generation) {
		l->nr_other_generation++;
		return 0;
	}
	if (extents > f->buffer_size) {
		extents = f->buffer_size;
		l->nr_clamped++;
	}
	memset(b, 0, sizeof(*b));
	b->index = i;
	b->owner_tid = d->owner_tid;
	b->owner_pid = d->owner_pid;
	b->cpu = d->cpu;
	b->seq = d->seq;
	b->extents = extents;
	b->len = extents;	/* optimistic until validated */
	b->state = __atomic_load_n(&d->state, __ATOMIC_ACQUIRE);
	b->data = (const uint8_t *)ctl + f->control_size +
		  (uint64_t)i * f->buffer_size;
	b->span = f->buffer_size;
	return 1;
}

bool log_layout_validate_step(struct log_layout *l)
{
	struct log_buffer *b;
	struct fdr__buffer_check chk;

	if (l->nr_validated == l->nr_buffers)
		return false;
	b = &l->buffers[l->nr_validated++];
	if (b->known)
		chk = *b->known;
	else
		fdr__buffer_check(b->data, b->extents, &chk);
	if (chk.problem)
		note_problem(l, b, &chk);
	if (chk.valid_len != b->len)
		l->changed = true;
	b->len = chk.valid_len;
	l->records += chk.records;
	return l->nr_validated < l->nr_buffers;
}

/* Remove the buffers validation dropped entirely. */
static void compact(struct log_layout *l)
{
	size_t kept = 0;

	for (size_t i = 0; i < l->nr_buffers; i++)
		if (l->buffers[i].len)
			l->buffers[kept++] = l->buffers[i];
	l->nr_buffers = kept;
	l->nr_validated = kept;
}

/* Give each kept buffer its extents record and its file offset. */
static void place_buffers(struct log_layout *l)
{
	uint64_t off = FDR_LOG_HEADER_SIZE;

	for (size_t i = 0; i < l->nr_buffers; i++) {
		struct log_buffer *b = &l->buffers[i];

		memset(&b->extents_record, 0, sizeof(b->extents_record));
		b->extents_record.type_kind =
			FDR_MD_FIRST_BYTE(FDR_MD_BUFFER_EXTENTS);
		memcpy(b->extents_record.data + FDR_MD_BUFFER_EXTENTS_SIZE,
		       &b->len, sizeof(b->len));
		b->file_offset = off;
		off += FDR_METADATA_SIZE + b->len;
	}
	l->file_size = l->nr_buffers ? off : 0;
}

/* The side fields and the header come from the same facts as the geometry. */
static void take_facts(struct log_layout *l, const struct layout_facts *f)
{
	fill_header(f, &l->header);
	l->generation = f->generation;
	l->nr_descs = f->nr_buffers;
	l->finalize_reason = f->finalize_reason;
	l->finalize_signal = f->finalize_signal;
	l->finalize_pid = f->finalize_pid;
	l->finalize_tid = f->finalize_tid;
	l->finalize_fid = f->finalize_fid;
	l->finalize_duration_ns = f->finalize_duration_ns;
}

int log_layout_select(const struct fdr_control *ctl, size_t map_len,
		      const struct fdr_status *trusted,
		      struct log_layout *l, const char **why)
{
	struct layout_facts f;

	memset(l, 0, sizeof(*l));
	*why = layout_facts_read(ctl, map_len, trusted, &f);
	if (*why)
		return -EINVAL;
	take_facts(l, &f);
	l->buffers = calloc(f.nr_buffers ? f.nr_buffers : 1, sizeof(*l->buffers));
	l->problems = calloc(f.nr_buffers ? f.nr_buffers : 1, sizeof(*l->problems));
	if (!l->buffers || !l->problems) {
		log_layout_free(l);
		return -ENOMEM;
	}
	for (uint32_t i = 0; i < f.nr_buffers; i++)
		if (take_buffer(l, &f, ctl, i, &l->buffers[l->nr_buffers]))
			l->nr_buffers++;
	qsort(l->buffers, l->nr_buffers, sizeof(*l->buffers), by_seq);
	place_buffers(l);
	return 0;
}

void log_layout_finish(struct log_layout *l)
{
	while (log_layout_validate_step(l))
		;
	if (l->changed) {
		compact(l);
		place_buffers(l);
		l->changed = false;
	}
}

int log_layout_build(const struct fdr_control *ctl, size_t map_len,
		     const struct fdr_status *trusted,
		     struct log_layout *l, const char **why)
{
	int ret = log_layout_select(ctl, map_len, trusted, l, why);

	if (!ret)
		log_layout_finish(l);
	return ret;
}

void log_layout_free(struct log_layout *l)
{
	free(l->buffers);
	free(l->problems);
	memset(l, 0, sizeof(*l));
}

int log_layout_iovecs(const struct log_layout *l, struct iovec **out, size_t *n)
{
	struct iovec *iov = calloc(2 * l->nr_buffers + 1, sizeof(*iov));

	if (!iov)
		return -ENOMEM;
	iov[0].iov_base = (void *)&l->header;
	iov[0].iov_len = sizeof(l->header);
	for (size_t i = 0; i < l->nr_buffers; i++) {
		const struct log_buffer *b = &l->buffers[i];

		iov[1 + 2 * i].iov_base = (void *)&b->extents_record;
		iov[1 + 2 * i].iov_len = sizeof(b->extents_record);
		iov[2 + 2 * i].iov_base = (void *)b->data;
		iov[2 + 2 * i].iov_len = b->len;
	}
	*out = iov;
	*n = 2 * l->nr_buffers + 1;
	return 0;
}
