// SPDX-License-Identifier: MIT
/*
 * drop_marker.c - recognize the drop marker (uapi/linux/fdr_log.h): a
 * custom event whose payload is struct fdr_drop_event.  One rule for the
 * raw record and the expanded event, so every tool counts the same
 * markers.  A log may hold anything: the size and the whole magic must
 * match, otherwise it is an ordinary custom event.
 */
#include "internal.h"

static int is_drop_payload(const uint8_t *payload, int64_t size, uint64_t *records)
{
	static const char magic[] = FDR_DROP_EVENT_MAGIC;

	_Static_assert(sizeof(magic) - 1 == sizeof(((struct fdr_drop_event *)0)->magic),
		       "the magic fills the field, without its NUL");
	if (!payload || size != FDR_DROP_EVENT_SIZE ||
	    memcmp(payload, magic, sizeof(magic) - 1))
		return 0;
	if (records)
		*records = fdr__get_u64(payload + offsetof(struct fdr_drop_event, records));
	return 1;
}

int fdr_record_drop_marker(const struct fdr_record *rec, uint64_t *records)
{
	if (!rec->is_metadata || rec->kind != FDR_MD_CUSTOM_EVENT)
		return 0;
	return is_drop_payload(rec->payload, rec->event_size, records);
}

int fdr_event_drop_marker(const struct fdr_trace *t, const struct fdr_event *ev,
			  uint64_t *records)
{
	uint32_t n;
	const uint8_t *p;

	if (ev->kind != FDR_EVENT_CUSTOM)
		return 0;
	p = fdr_event_payload(t, ev, &n);
	return is_drop_payload(p, n, records);
}
