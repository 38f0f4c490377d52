// SPDX-License-Identifier: MIT
/* log_precheck.c - record walks done during the grace period, reused at flush. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "log_precheck.h"

int log_precheck_build(const struct fdr_control *ctl, size_t map_len,
		       const struct fdr_status *trusted,
		       struct log_precheck *pc)
{
	struct log_layout l;
	const char *why;
	int ret;

	memset(pc, 0, sizeof(*pc));
	ret = log_layout_select(ctl, map_len, trusted, &l, &why);
	if (ret)
		return ret;
	pc->nr = l.nr_descs;	/* the checked geometry, not the shared page */
	pc->entries = calloc(pc->nr ? pc->nr : 1, sizeof(*pc->entries));
	if (!pc->entries) {
		log_layout_free(&l);
		return -ENOMEM;
	}
	for (size_t i = 0; i < l.nr_buffers; i++) {
		const struct log_buffer *b = &l.buffers[i];
		struct precheck_entry *e;

		if (b->state != FDR_BUF_RELEASED || b->index >= pc->nr)
			continue;	/* still held: it may grow; walk it at flush */
		e = &pc->entries[b->index];
		fdr__buffer_check(b->data, b->extents, &e->chk);
		e->generation = l.generation;
		e->seq = b->seq;
		e->extents = b->extents;
		e->valid = true;
	}
	log_layout_free(&l);
	return 0;
}

size_t log_precheck_apply(struct log_layout *l, const struct log_precheck *pc)
{
	size_t reused = 0;

	for (size_t i = 0; i < l->nr_buffers; i++) {
		struct log_buffer *b = &l->buffers[i];
		const struct precheck_entry *e;

		if (b->index >= pc->nr)
			continue;
		e = &pc->entries[b->index];
		if (e->valid && b->state == FDR_BUF_RELEASED &&
		    e->generation == l->generation && e->seq == b->seq &&
		    e->extents == b->extents) {
			b->known = &e->chk;
			reused++;
		}
	}
	return reused;
}

void log_precheck_free(struct log_precheck *pc)
{
	free(pc->entries);
	memset(pc, 0, sizeof(*pc));
}
