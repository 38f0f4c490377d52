// SPDX-License-Identifier: MIT
/*
 * record_producer.c - decode records one at a time, following each
 * version's buffer framing.
 *
 * Field layouts are uapi/linux/fdr_log.h's; the framing rules are
 * §4 of the format draft ../shared/FORMAT.md (v2 alone is in
 * Documentation/format.md §1): v1 skips the padding after EndOfBuffer up to
 * ThreadBufferSize (counted from the NewBuffer byte), v2 consumes exactly
 * the bytes each BufferExtents announces, v3+ behaves as LLVM 19 does
 * (over-reads are errors, bytes after a buffer are skipped up to the next
 * 0x0f byte).
 */
#include <stdio.h>
#include "internal.h"

static const char *const metadata_names[FDR_MD_NR_KINDS] = {
	[FDR_MD_NEW_BUFFER] = "NewBuffer",
	[FDR_MD_END_OF_BUFFER] = "EndOfBuffer",
	[FDR_MD_NEW_CPU_ID] = "NewCPUId",
	[FDR_MD_TSC_WRAP] = "TSCWrap",
	[FDR_MD_WALLTIME] = "WalltimeMarker",
	[FDR_MD_CUSTOM_EVENT] = "CustomEvent",
	[FDR_MD_CALL_ARGUMENT] = "CallArgument",
	[FDR_MD_BUFFER_EXTENTS] = "BufferExtents",
	[FDR_MD_TYPED_EVENT] = "TypedEvent",
	[FDR_MD_PID] = "Pid",
};

static const char *const function_names[8] = {
	"Function Enter", "Function Exit", "Function TailExit", "Function EnterArg",
	"Function kind 4", "Function kind 5", "Function kind 6", "Function kind 7",
};

const char *fdr_record_kind_name(int is_metadata, unsigned kind)
{
	if (!is_metadata)
		return function_names[kind & 7];
	return kind < FDR_MD_NR_KINDS ? metadata_names[kind] : "Metadata";
}

static int truncated(struct fdr_reader_error *err, const struct fdr_log *log,
		     uint64_t off, const char *what, uint64_t need)
{
	return reader_fail(err, off, what,
			   "truncated: needs %llu bytes, the file ends %llu bytes after it",
			   (unsigned long long)need, (unsigned long long)(log->size - off));
}

static int decode_function(const struct fdr_log *log, uint64_t off,
			   struct fdr_record *rec, struct fdr_reader_error *err)
{
	const uint8_t *b = log->data + off;
	uint32_t word0;

	if (log->size - off < FDR_FUNCTION_SIZE)
		return truncated(err, log, off, "Function", FDR_FUNCTION_SIZE);
	word0 = fdr__get_u32(b);
	rec->kind = FDR_FN_KIND(word0);
	if (rec->kind > FDR_FN_ENTER_ARG)
		return reader_fail(err, off, "Function",
				   "unknown function record kind %u; expected 0-3 "
				   "(Enter, Exit, TailExit, EnterArg)", rec->kind);
	rec->func_id = FDR_FN_ID(word0);
	rec->delta = fdr__get_u32(b + 4);
	rec->length = FDR_FUNCTION_SIZE;
	return 0;
}

/* Custom and typed events: a 16-byte marker, then event_size bytes. */
static int decode_event(const struct fdr_log *log, uint64_t off, unsigned version,
			struct fdr_record *rec, struct fdr_reader_error *err)
{
	const uint8_t *d = log->data + off + 1;
	const char *name = fdr_record_kind_name(1, rec->kind);

	rec->event_size = fdr__get_s32(d + FDR_MD_CUSTOM_EVENT_SIZE);
	if (rec->event_size <= 0)
		return reader_fail(err, off, name, "event size %d; expected > 0",
				   rec->event_size);
	if (rec->kind == FDR_MD_TYPED_EVENT) {
		/* LLVM 19 reads the v5 layout whatever the version. */
		rec->event_delta = fdr__get_s32(d + FDR_MD_TYPED_EVENT_DELTA);
		rec->event_type = fdr__get_u16(d + FDR_MD_TYPED_EVENT_TYPE);
	} else if (version >= 5) {
		rec->event_delta = fdr__get_s32(d + FDR_MD_CUSTOM_EVENT_TSC);
	} else {
		/*
		 * LLVM 19's producer decodes with its default version (5), so
		 * it reads the v4 CPU field in v1-v3 logs too (padding there).
		 */
		rec->value = fdr__get_u64(d + FDR_MD_CUSTOM_EVENT_TSC);
		rec->cpu = fdr__get_u16(d + FDR_MD_CUSTOM_EVENT_CPU_V4);
	}
	if ((uint64_t)rec->event_size > log->size - off - FDR_METADATA_SIZE)
		return reader_fail(err, off, name,
				   "payload of %d bytes runs past the end of the file "
				   "(%llu bytes left)", rec->event_size,
				   (unsigned long long)(log->size - off - FDR_METADATA_SIZE));
	rec->payload = log->data + off + FDR_METADATA_SIZE;
	rec->length = FDR_METADATA_SIZE + (uint32_t)rec->event_size;
	return 0;
}

static int decode_metadata(const struct fdr_log *log, uint64_t off,
			   struct fdr_record *rec, struct fdr_reader_error *err)
{
	const uint8_t *d = log->data + off + 1;
	unsigned version = log->header.version;

	rec->kind = log->data[off] >> 1;
	if (rec->kind >= FDR_MD_NR_KINDS)
		return reader_fail(err, off, "Metadata",
				   "unknown metadata record kind %u (first byte 0x%02x); "
				   "expected 0-9", rec->kind, log->data[off]);
	if (log->size - off < FDR_METADATA_SIZE)
		return truncated(err, log, off, fdr_record_kind_name(1, rec->kind),
				 FDR_METADATA_SIZE);
	rec->length = FDR_METADATA_SIZE;
	switch (rec->kind) {
	case FDR_MD_NEW_BUFFER:
	case FDR_MD_PID:
		rec->id = fdr__get_s32(d);
		break;
	case FDR_MD_END_OF_BUFFER:
		if (version >= 2)
			return reader_fail(err, off, "EndOfBuffer",
					   "EndOfBuffer in a version %u log; expected "
					   "none (only v1 buffers end with one)", version);
		break;
	case FDR_MD_NEW_CPU_ID:
		rec->cpu = fdr__get_u16(d + FDR_MD_NEW_CPU_ID_CPU);
		rec->value = fdr__get_u64(d + FDR_MD_NEW_CPU_ID_TSC);
		break;
	case FDR_MD_WALLTIME:
		rec->value = fdr__get_u64(d + FDR_MD_WALLTIME_SEC);
		rec->usec = fdr__get_u32(d + FDR_MD_WALLTIME_USEC);
		break;
	case FDR_MD_CUSTOM_EVENT:
	case FDR_MD_TYPED_EVENT:
		return decode_event(log, off, version, rec, err);
	default:	/* TSCWrap, CallArgument, BufferExtents: one u64 */
		rec->value = fdr__get_u64(d);
		break;
	}
	return 0;
}

/* Decode the record at off (framing aside). */
static int decode_at(const struct fdr_log *log, uint64_t off, struct fdr_record *rec,
		     struct fdr_reader_error *err)
{
	memset(rec, 0, sizeof(*rec));
	rec->offset = off;
	rec->is_metadata = log->data[off] & 1;
	if (rec->is_metadata)
		return decode_metadata(log, off, rec, err);
	return decode_function(log, off, rec, err);
}

void producer_init(struct producer *p, const struct fdr_log *log)
{
	p->log = log;
	p->off = FDR_LOG_HEADER_SIZE;
	p->remaining = 0;
	p->buffer_start = UINT64_MAX;
}

static bool is_extents(const struct fdr_record *rec)
{
	return rec->is_metadata && rec->kind == FDR_MD_BUFFER_EXTENTS;
}

/*
 * The byte count a BufferExtents announces.  From v3 on we count as LLVM
 * 19's producer does, in a uint32_t: a size of 2^32 + 64 means 64 there.
 */
static uint64_t extents_size(const struct fdr_log *log, const struct fdr_record *rec)
{
	return log->header.version >= 3 ? (uint32_t)rec->value : rec->value;
}

/* v2+, between buffers: the next record must be a BufferExtents. */
static int next_buffer(struct producer *p, struct fdr_record *rec,
		       struct fdr_reader_error *err)
{
	const struct fdr_log *log = p->log;

	if (log->header.version >= 3) {
		/* LLVM 19 skips anything up to the next 0x0f byte. */
		const uint8_t *hit = memchr(log->data + p->off,
					    FDR_MD_FIRST_BYTE(FDR_MD_BUFFER_EXTENTS),
					    log->size - p->off);
		if (!hit)
			return reader_fail(err, p->off, "",
					   "%llu trailing bytes hold no BufferExtents "
					   "record (0x0f)",
					   (unsigned long long)(log->size - p->off));
		p->off = (uint64_t)(hit - log->data);
	}
	if (decode_at(log, p->off, rec, err))
		return -1;
	if (!is_extents(rec))
		return reader_fail(err, p->off, fdr_record_kind_name(rec->is_metadata, rec->kind),
				   "expected BufferExtents (%s), found %s",
				   p->off == FDR_LOG_HEADER_SIZE ? "every v2 buffer starts with one"
				   : "the previous buffer's extents end here",
				   fdr_record_kind_name(rec->is_metadata, rec->kind));
	p->remaining = extents_size(log, rec);
	p->off += rec->length;
	return 1;
}

/* v2+: a record inside a buffer must fit in what its extents announced. */
static int account_extents(struct producer *p, const struct fdr_record *rec,
			   struct fdr_reader_error *err)
{
	const char *name = fdr_record_kind_name(rec->is_metadata, rec->kind);

	if (is_extents(rec)) {
		if (p->log->header.version == 2)
			return reader_fail(err, rec->offset, name,
					   "expected a record of the current buffer "
					   "(%llu bytes of it left), found BufferExtents",
					   (unsigned long long)p->remaining);
		p->remaining = extents_size(p->log, rec);	/* LLVM 19 restarts the count */
		return 0;
	}
	if (rec->length > p->remaining)
		return reader_fail(err, rec->offset, name,
				   "record of %u bytes runs past its buffer's extents "
				   "(%llu bytes left in the buffer)", rec->length,
				   (unsigned long long)p->remaining);
	p->remaining -= rec->length;
	return 0;
}

/* v1: after EndOfBuffer, skip the padding up to ThreadBufferSize. */
static int skip_v1_padding(struct producer *p, const struct fdr_record *rec,
			   struct fdr_reader_error *err)
{
	uint64_t bs = p->log->header.buffer_size, end = rec->offset + rec->length;
	uint64_t target;

	if (p->buffer_start == UINT64_MAX || bs == 0)
		return 0;	/* nothing to measure from: read on, as LLVM 19 does */
	if (__builtin_add_overflow(p->buffer_start, bs, &target) || target > p->log->size)
		return reader_fail(err, rec->offset, "EndOfBuffer",
				   "truncated: the buffer that began at offset %llu "
				   "is ThreadBufferSize=%llu bytes but the file ends at %zu",
				   (unsigned long long)p->buffer_start,
				   (unsigned long long)bs, p->log->size);
	if (target < end)
		return reader_fail(err, rec->offset, "EndOfBuffer",
				   "expected the buffer that began at offset %llu to "
				   "end by %llu (ThreadBufferSize=%llu), found its "
				   "EndOfBuffer ending at %llu",
				   (unsigned long long)p->buffer_start,
				   (unsigned long long)target, (unsigned long long)bs,
				   (unsigned long long)end);
	p->off = target;
	p->buffer_start = UINT64_MAX;
	return 0;
}

int producer_next(struct producer *p, struct fdr_record *rec, struct fdr_reader_error *err)
{
	const struct fdr_log *log = p->log;
	unsigned version = log->header.version;

	if (version >= 2 && p->remaining == 0) {
		if (p->off >= log->size)
			return 0;
		return next_buffer(p, rec, err);
	}
	if (p->off >= log->size) {
		if (version >= 2)
			return reader_fail(err, p->off, "",
					   "truncated: the last buffer's extents announce "
					   "%llu more bytes than the file has",
					   (unsigned long long)p->remaining);
		return 0;
	}
	if (decode_at(log, p->off, rec, err))
		return -1;
	if (version >= 2 && account_extents(p, rec, err))
		return -1;
	p->off += rec->length;
	if (version == 1 && rec->is_metadata) {
		if (rec->kind == FDR_MD_NEW_BUFFER)
			p->buffer_start = rec->offset;
		else if (rec->kind == FDR_MD_END_OF_BUFFER && skip_v1_padding(p, rec, err))
			return -1;
	}
	return 1;
}
