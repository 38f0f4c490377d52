// SPDX-License-Identifier: MIT
/*
 * block_verifier.c - the per-block state machine of LLVM 19's
 * BlockVerifier (the format draft ../shared/FORMAT.md §4.4): which record
 * may follow which, and which records may end a block.
 */
#include <stdio.h>
#include "internal.h"

#define BIT(s) (1u << (s))
/* What may follow a NewCPUId, TSCWrap or event: the body of a buffer. */
#define BODY (BIT(VS_NEW_CPU_ID) | BIT(VS_TSC_WRAP) | BIT(VS_CUSTOM_EVENT) | \
	      BIT(VS_TYPED_EVENT) | BIT(VS_FUNCTION) | BIT(VS_END_OF_BUFFER))

static const unsigned allowed_next[VS_NR] = {
	[VS_UNKNOWN] = BIT(VS_BUFFER_EXTENTS) | BIT(VS_NEW_BUFFER),
	[VS_BUFFER_EXTENTS] = BIT(VS_NEW_BUFFER),
	[VS_NEW_BUFFER] = BIT(VS_WALLCLOCK),
	[VS_WALLCLOCK] = BIT(VS_PID) | BIT(VS_NEW_CPU_ID),
	[VS_PID] = BIT(VS_NEW_CPU_ID),
	[VS_NEW_CPU_ID] = BODY,
	[VS_TSC_WRAP] = BODY,
	[VS_CUSTOM_EVENT] = BODY,
	[VS_TYPED_EVENT] = BODY,
	[VS_FUNCTION] = BODY | BIT(VS_CALL_ARG),
	[VS_CALL_ARG] = (BODY | BIT(VS_CALL_ARG)),
	[VS_END_OF_BUFFER] = 0,
};

static const char *const state_names[VS_NR] = {
	"start of block", "BufferExtents", "NewBuffer", "WalltimeMarker", "Pid",
	"NewCPUId", "TSCWrap", "CustomEvent", "TypedEvent", "Function",
	"CallArgument", "EndOfBuffer",
};

enum verifier_state verifier_state_of_kind(int is_metadata, unsigned kind)
{
	static const enum verifier_state of_metadata[FDR_MD_NR_KINDS] = {
		[FDR_MD_NEW_BUFFER] = VS_NEW_BUFFER,
		[FDR_MD_END_OF_BUFFER] = VS_END_OF_BUFFER,
		[FDR_MD_NEW_CPU_ID] = VS_NEW_CPU_ID,
		[FDR_MD_TSC_WRAP] = VS_TSC_WRAP,
		[FDR_MD_WALLTIME] = VS_WALLCLOCK,
		[FDR_MD_CUSTOM_EVENT] = VS_CUSTOM_EVENT,
		[FDR_MD_CALL_ARGUMENT] = VS_CALL_ARG,
		[FDR_MD_BUFFER_EXTENTS] = VS_BUFFER_EXTENTS,
		[FDR_MD_TYPED_EVENT] = VS_TYPED_EVENT,
		[FDR_MD_PID] = VS_PID,
	};

	return is_metadata ? of_metadata[kind] : VS_FUNCTION;
}

enum verifier_state verifier_state_of(const struct fdr_record *rec)
{
	return verifier_state_of_kind(rec->is_metadata, rec->kind);
}

bool verifier_allows(enum verifier_state from, enum verifier_state to)
{
	return allowed_next[from] & BIT(to);
}

/* A block needs NewBuffer, WalltimeMarker, [Pid,] NewCPUId. */
bool verifier_can_end(enum verifier_state state)
{
	return !(BIT(state) & (BIT(VS_UNKNOWN) | BIT(VS_BUFFER_EXTENTS) | BIT(VS_NEW_BUFFER) |
			       BIT(VS_WALLCLOCK) | BIT(VS_PID)));
}

/* "A, B or C" for the set of allowed states. */
static void describe_set(unsigned set, char *buf, size_t size)
{
	size_t len = 0;
	unsigned left = (unsigned)__builtin_popcount(set);

	buf[0] = 0;
	for (int s = 0; s < VS_NR && len < size; s++) {
		if (!(set & BIT(s)))
			continue;
		left--;
		len += (size_t)snprintf(buf + len, size - len, "%s%s", state_names[s],
					left == 0 ? "" : left == 1 ? " or " : ", ");
	}
	if (!set)
		snprintf(buf, size, "nothing");
}

int verifier_step(enum verifier_state *state, const struct fdr_record *rec,
		  struct fdr_reader_error *err)
{
	enum verifier_state to = verifier_state_of(rec);
	char expected[128];

	/* After EndOfBuffer, LLVM ignores everything up to the next block. */
	if (*state == VS_END_OF_BUFFER && to != VS_NEW_BUFFER)
		return 0;
	if (verifier_allows(*state, to)) {
		*state = to;
		return 0;
	}
	describe_set(allowed_next[*state], expected, sizeof(expected));
	return reader_fail(err, rec->offset, fdr_record_kind_name(rec->is_metadata, rec->kind),
			   "invalid transition from %s: expected %s, found %s",
			   state_names[*state], expected,
			   fdr_record_kind_name(rec->is_metadata, rec->kind));
}

int verifier_finish(enum verifier_state state, uint64_t offset,
		    struct fdr_reader_error *err)
{
	if (verifier_can_end(state))
		return 0;
	return reader_fail(err, offset, state_names[state],
			   "block ends after %s: expected NewCPUId or a later "
			   "record (a block needs NewBuffer, WalltimeMarker, "
			   "[Pid,] NewCPUId)", state_names[state]);
}
