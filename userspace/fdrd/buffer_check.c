// SPDX-License-Identifier: MIT
/*
 * buffer_check.c - walk a buffer's records with the state machine of
 * LLVM 19's BlockVerifier (FORMAT.md §4.4), restricted to what a v2 log
 * may hold (no EndOfBuffer, no nested BufferExtents).
 */
#include <string.h>

#include <linux/fdr_log.h>

#include "buffer_check.h"

/* Where the walk is: which records may come next. */
enum block_state {
	AT_START,	/* only NewBuffer */
	AFTER_NEW_BUFFER,	/* only Walltime */
	AFTER_WALLTIME,	/* Pid or NewCPUId */
	AFTER_PID,	/* NewCPUId */
	IN_BODY,	/* after NewCPUId, TSCWrap, an event: no CallArgument */
	AFTER_FUNCTION,	/* after a function record or argument: CallArgument ok */
};

static int is_terminal(enum block_state s)
{
	return s == IN_BODY || s == AFTER_FUNCTION;
}

static int32_t read_s32(const uint8_t *p)
{
	int32_t v;

	memcpy(&v, p, sizeof(v));
	return v;
}

/*
 * One metadata record at buf[0..avail): its total size (16 + payload of
 * events) and the next state, or a problem.
 */
static const char *step_metadata(const uint8_t *rec, size_t avail,
				 enum block_state *state, size_t *size)
{
	unsigned int kind = rec[0] >> 1;
	int body = *state == IN_BODY || *state == AFTER_FUNCTION;

	if (avail < FDR_METADATA_SIZE)
		return "metadata record cut short";
	*size = FDR_METADATA_SIZE;
	switch (kind) {
	case FDR_MD_NEW_BUFFER:
		if (*state != AT_START)
			return "NewBuffer inside a buffer";
		*state = AFTER_NEW_BUFFER;
		return NULL;
	case FDR_MD_WALLTIME:
		if (*state != AFTER_NEW_BUFFER)
			return "Walltime not right after NewBuffer";
		*state = AFTER_WALLTIME;
		return NULL;
	case FDR_MD_PID:
		if (*state != AFTER_WALLTIME)
			return "Pid not right after Walltime";
		*state = AFTER_PID;
		return NULL;
	case FDR_MD_NEW_CPU_ID:
		if (!body && *state != AFTER_WALLTIME && *state != AFTER_PID)
			return "NewCPUId before the buffer preamble";
		*state = IN_BODY;
		return NULL;
	case FDR_MD_TSC_WRAP:
		if (!body)
			return "TSCWrap before NewCPUId";
		*state = IN_BODY;
		return NULL;
	case FDR_MD_CALL_ARGUMENT:
		if (*state != AFTER_FUNCTION)
			return "CallArgument not after a function record";
		return NULL;
	case FDR_MD_CUSTOM_EVENT:
	case FDR_MD_TYPED_EVENT: {
		/* both kinds keep the payload size as an i32 at payload 0 */
		int32_t payload = read_s32(rec + 1 + FDR_MD_CUSTOM_EVENT_SIZE);

		if (!body)
			return "event before NewCPUId";
		if (payload <= 0)
			return "event with a size <= 0";
		if ((size_t)payload > avail - FDR_METADATA_SIZE)
			return "event payload runs past the extents";
		*size = FDR_METADATA_SIZE + (size_t)payload;
		*state = IN_BODY;
		return NULL;
	}
	case FDR_MD_END_OF_BUFFER:
		return "EndOfBuffer record (not allowed in v2)";
	case FDR_MD_BUFFER_EXTENTS:
		return "BufferExtents record inside a buffer";
	default:
		return "unknown metadata record kind";
	}
}

static const char *step_function(const uint8_t *rec, size_t avail,
				 enum block_state *state)
{
	static const uint8_t zero[FDR_FUNCTION_SIZE];
	uint32_t word0;

	if (avail < FDR_FUNCTION_SIZE)
		return "function record cut short";
	if (*state != IN_BODY && *state != AFTER_FUNCTION)
		return "function record before NewCPUId";
	memcpy(&word0, rec, sizeof(word0));
	if (FDR_FN_KIND(word0) > FDR_FN_ENTER_ARG)
		return "unknown function record kind";
	if (!memcmp(rec, zero, sizeof(zero)))
		return "zero-filled data past what was written (Enter of function 0)";
	*state = AFTER_FUNCTION;
	return NULL;
}

/*
 * Function records are almost all of a buffer: skip a run of valid ones
 * in a tight loop.  A record whose first byte has bit 0 clear (function)
 * and bit 3 clear (kind 0..3) is a valid function record; the first byte
 * is the low byte of the record read as a little-endian u64, so eight
 * records (one cache line) are checked with one OR of eight words; a zero
 * word (never-written data, see buffer_check.h) leaves it to the slow walk.
 * Returns the new offset.
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
	while (off + FDR_FUNCTION_SIZE <= len && !(buf[off] & bad)) {
		uint64_t w;

		memcpy(&w, buf + off, sizeof(w));
		if (!w)
			break;
		off += FDR_FUNCTION_SIZE;
	}
	return off;
}

void buffer_check(const uint8_t *buf, size_t len, struct buffer_check *out)
{
	enum block_state state = AT_START;
	size_t off = 0, records = 0;

	memset(out, 0, sizeof(*out));
	while (off < len) {
		size_t size = FDR_FUNCTION_SIZE;
		const char *problem;

		if ((state == IN_BODY || state == AFTER_FUNCTION) && !(buf[off] & 0x09)) {
			size_t end = skip_functions(buf, off, len);

			if (end > off) {
				records += (end - off) / FDR_FUNCTION_SIZE;
				off = end;
				state = AFTER_FUNCTION;
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
		if (is_terminal(state)) {
			out->valid_len = off;
			out->records = records;
		}
	}
	out->bad_offset = off;
	if (!out->problem && !is_terminal(state))
		out->problem = len ? "buffer ends inside its preamble" : "empty buffer";
}
