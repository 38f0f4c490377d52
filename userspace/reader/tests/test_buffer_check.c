// SPDX-License-Identifier: MIT
/*
 * test_buffer_check.c - fdrd's record walk (libfdrread's grammar) that
 * decides how much of a buffer is a well-formed v2 block, case by case
 * (Documentation/format.md §1-§2; the loader's rules: the format
 * draft ../shared/FORMAT.md §4.4).
 */
#include <string.h>

#include <linux/fdr_log.h>

#include <fdr_buffer_check.h>
#include "tap.h"

static unsigned char buf[1024];
static size_t len;

static void md(unsigned int kind, int32_t payload0)
{
	memset(buf + len, 0, 16);
	buf[len] = FDR_MD_FIRST_BYTE(kind);
	memcpy(buf + len + 1, &payload0, 4);
	len += 16;
}

static void fn(unsigned int kind)
{
	uint32_t w0 = FDR_FN_WORD0(kind & 7, 5), delta = 3;

	memcpy(buf + len, &w0, 4);
	memcpy(buf + len + 4, &delta, 4);
	len += 8;
}

static void preamble(void)
{
	len = 0;
	md(FDR_MD_NEW_BUFFER, 42);
	md(FDR_MD_WALLTIME, 0);
	md(FDR_MD_NEW_CPU_ID, 1);
}

/* Check: the walk keeps `keep` bytes and reports a problem iff `bad`. */
static void expect(const char *what, size_t keep, int bad)
{
	struct fdr__buffer_check c;

	fdr__buffer_check(buf, len, &c);
	tap_ok(c.valid_len == keep && !!c.problem == bad, "%s: kept %zu of %zu%s%s",
	       what, c.valid_len, len, c.problem ? ", " : "", c.problem ? c.problem : "");
}

/* Extents past the data: the zeroed tail is not records. */
static void expect_zero_tail(void)
{
	size_t written;

	len = 0;
	preamble();
	fn(FDR_FN_ENTER);
	fn(FDR_FN_EXIT);
	written = len;
	memset(buf + len, 0, 8 * 8 + 8);	/* past the fast path's stride */
	len += 8 * 8 + 8;
	expect("zero-filled tail after the records is cut", written, 1);
	len = 0;
	preamble();
	for (int i = 0; i < 20; i++)
		fn(FDR_FN_ENTER);
	written = len;
	memset(buf + len, 0, 8);
	len += 8;
	fn(FDR_FN_EXIT);
	expect("a zero record inside a long run of records ends the walk there",
	       written, 1);
}

int main(void)
{
	preamble();
	expect("preamble + NewCPUId alone is a block", 48, 0);
	len = 32;
	expect("NewBuffer + Walltime alone is not", 0, 1);
	len = 0;
	expect("empty", 0, 1);

	len = 0;
	md(FDR_MD_NEW_BUFFER, 1);
	md(FDR_MD_WALLTIME, 0);
	md(FDR_MD_PID, 7);
	md(FDR_MD_NEW_CPU_ID, 0);
	fn(FDR_FN_ENTER);
	expect("Pid between Walltime and NewCPUId", len, 0);

	preamble();
	fn(FDR_FN_ENTER_ARG);
	md(FDR_MD_CALL_ARGUMENT, 1);
	md(FDR_MD_CALL_ARGUMENT, 2);
	md(FDR_MD_TSC_WRAP, 0);
	fn(FDR_FN_TAIL_EXIT);
	fn(FDR_FN_EXIT);
	md(FDR_MD_NEW_CPU_ID, 3);
	expect("arguments, TSCWrap, tail exit, CPU change", len, 0);

	preamble();
	md(FDR_MD_TYPED_EVENT, 8);
	memcpy(buf + len, "12345678", 8);
	len += 8;
	fn(FDR_FN_ENTER);
	expect("typed event with its payload", len, 0);

	preamble();
	fn(FDR_FN_ENTER);
	md(FDR_MD_CUSTOM_EVENT, 0);
	expect("custom event of size 0 cut", 56, 1);

	preamble();
	fn(FDR_FN_ENTER);
	md(FDR_MD_END_OF_BUFFER, 0);
	expect("EndOfBuffer (v1 only) cut", 56, 1);

	preamble();
	fn(FDR_FN_ENTER);
	md(FDR_MD_BUFFER_EXTENTS, 8);
	expect("nested BufferExtents cut", 56, 1);

	preamble();
	fn(FDR_FN_ENTER);
	fn(4);	/* kinds 4..7 do not exist; FDR_FN_WORD0 masks to 3 bits */
	buf[len - 8] |= 0x08;
	expect("function kind 4 cut", 56, 1);

	preamble();
	md(FDR_MD_NEW_BUFFER, 1);
	expect("second NewBuffer cut", 48, 1);

	len = 0;
	md(FDR_MD_NEW_BUFFER, 1);
	md(FDR_MD_NEW_CPU_ID, 1);
	expect("missing Walltime: dropped", 0, 1);

	preamble();
	md(FDR_MD_CALL_ARGUMENT, 1);
	expect("CallArgument after NewCPUId cut", 48, 1);

	preamble();
	for (int i = 0; i < 40; i++)
		fn(i % 2 ? FDR_FN_EXIT : FDR_FN_ENTER);
	buf[48 + 8 * 33] = 0x09;	/* a Walltime in the middle of a function run */
	expect("bad record inside a long function run", 48 + 8 * 33, 1);

	preamble();
	fn(FDR_FN_ENTER);
	buf[len++] = 0x10;
	expect("trailing partial function record cut", 56, 1);
	expect_zero_tail();
	return tap_done();
}
