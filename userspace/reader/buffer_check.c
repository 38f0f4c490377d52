// SPDX-License-Identifier: MIT
/*
 * buffer_check.c - fdrd's walk over one raw buffer, on the block state
 * machine of block_verifier.c (the format draft ../shared/FORMAT.md
 * §4.4), restricted to what a v2 log may hold (Documentation/format.md
 * §1: no EndOfBuffer, no nested BufferExtents).  The reader and fdrd thus
 * accept the same records in the same order.
 */
#include <fdr_buffer_check.h>
#include <fdr_bytes.h>

#include "internal.h"

/* Why a record may not come where it is, by the record's state. */
static const char *const misplaced[VS_NR] = {
	[VS_BUFFER_EXTENTS] = "BufferExtents record inside a buffer",
	[VS_NEW_BUFFER] = "NewBuffer inside a buffer",
	[VS_WALLCLOCK] = "Walltime not right after NewBuffer",
	[VS_PID] = "Pid not right after Walltime",
	[VS_NEW_CPU_ID] = "NewCPUId before the buffer preamble",
	[VS_TSC_WRAP] = "TSCWrap before NewCPUId",
	[VS_CUSTOM_EVENT] = "event before NewCPUId",
	[VS_TYPED_EVENT] = "event before NewCPUId",
	[VS_FUNCTION] = "function record before NewCPUId",
	[VS_CALL_ARG] = "CallArgument not after a function record",
};

static const char *step_to(enum verifier_state *state, enum verifier_state to)
{
	if (!verifier_allows(*state, to))
		return misplaced[to];
	*state = to;
	return NULL;
}

/* Both event kinds keep the payload size as an i32 at payload 0. */
static const char *event_size(const uint8_t *rec, size_t avail, size_t *size)
{
	int32_t payload = fdr__get_s32(rec + 1 + FDR_MD_CUSTOM_EVENT_SIZE);

	if (payload <= 0)
		return "event with a size <= 0";
	if ((size_t)payload > avail - FDR_METADATA_SIZE)
		return "event payload runs past the extents";
	*size = FDR_METADATA_SIZE + (size_t)payload;
	return NULL;
}

/*
 * One metadata record at rec[0..avail): its total size (16 + payload of
 * events) and the next state, or a problem.
 */
static const char *step_metadata(const uint8_t *rec, size_t avail,
				 enum verifier_state *state, size_t *size)
{
	unsigned int kind = rec[0] >> 1;
	const char *problem;

	if (avail < FDR_METADATA_SIZE)
		return "metadata record cut short";
	if (kind >= FDR_MD_NR_KINDS)
		return "unknown metadata record kind";
	/* v1 only; the table allows it for the reader's v1 logs */
	if (kind == FDR_MD_END_OF_BUFFER)
		return "EndOfBuffer record (not allowed in v2)";
	*size = FDR_METADATA_SIZE;
	problem = step_to(state, verifier_state_of_kind(1, kind));
	if (problem || (kind != FDR_MD_CUSTOM_EVENT && kind != FDR_MD_TYPED_EVENT))
		return problem;
	return event_size(rec, avail, size);
}

static const char *step_function(const uint8_t *rec, size_t avail,
				 enum verifier_state *state)
{
	static const uint8_t zero[FDR_FUNCTION_SIZE];
	const char *problem;

	if (avail < FDR_FUNCTION_SIZE)
		return "function record cut short";
	problem = step_to(state, VS_FUNCTION);
	if (problem)
		return problem;
	if (FDR_FN_KIND(fdr__get_u32(rec)) > FDR_FN_ENTER_ARG)
		return "unknown function record kind";
	if (!memcmp(rec, zero, sizeof(zero)))
		return "zero-filled data past what was written (Enter of function 0)";
	return NULL;
}

/*
 * Function records are almost all of a buffer: skip a run of valid ones
 * in a tight loop.  A record whose first byte has bit 0 clear (function)
 * and bit 3 clear (kind 0..3) is a valid function record; the first byte
 * is the low byte of the record read as a little-endian u64, so eight
 * records (one cache line) are checked with one OR of eight words; a zero
 * word (never-written data, see fdr_buffer_check.h) leaves it to the slow
 * walk.  Returns the new offset.
 */
static size_t skip_functions(const uint8_t *buf, size_t off, size_t len)
{
	const uint64_t bad = 0x09;

	while (off + 8 * FDR_FUNCTION_SIZE <= len) {
		uint64_t w[8];

		memcpy(w, buf + off, sizeof(w));
		if ((w[0] | w[1] | w[2] | w[3] | w[4] | w[5] | w[6] | w[7]) & bad ||
		    !w[0] || !w[1] || !w[2] || !w[3] || !w[4] || !w[5] || !w[6] || !w[7])
			break;
		off += 8 * FDR_FUNCTION_SIZE;
	}
	while (off + FDR_FUNCTION_SIZE <= len && !(buf[off] & bad) && fdr__get_u64(buf + off))
		off += FDR_FUNCTION_SIZE;
	return off;
}

void fdr__buffer_check(const uint8_t *buf, size_t len, struct fdr__buffer_check *out)
{
	/* fdrd writes the BufferExtents; the buffer starts after it */
	enum verifier_state state = VS_BUFFER_EXTENTS;
	size_t off = 0, records = 0;

	memset(out, 0, sizeof(*out));
	while (off < len) {
		size_t size = FDR_FUNCTION_SIZE;
		const char *problem;

		if (!(buf[off] & 0x09) && verifier_allows(state, VS_FUNCTION)) {
			size_t end = skip_functions(buf, off, len);

			if (end > off) {
				records += (end - off) / FDR_FUNCTION_SIZE;
				off = end;
				state = VS_FUNCTION;
				out->valid_len = off;
				out->records = records;
				continue;
			}
		}
		if (buf[off] & 1)
			problem = step_metadata(buf + off, len - off, &state, &size);
		else
			problem = step_function(buf + off, len - off, &state);
		if (problem) {
			out->problem = problem;
			break;
		}
		off += size;
		records++;
		if (verifier_can_end(state)) {
			out->valid_len = off;
			out->records = records;
		}
	}
	out->bad_offset = off;
	if (!out->problem && !verifier_can_end(state))
		out->problem = len ? "buffer ends inside its preamble" : "empty buffer";
}
