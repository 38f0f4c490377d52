// SPDX-License-Identifier: MIT
/*
 * test_log_layout.c - which buffers go into a log, in which order, with
 * which header, and what happens to malformed or hostile buffers.
 * Everything runs against a synthetic region (tests/synth_region.c).
 */
#include <string.h>

#include <linux/fdr_log.h>

#include "log_layout.h"
#include "synth_region.h"
#include "tap.h"

#define BSIZE 4096u

static void test_header(void)
{
	struct synth_region r;
	struct log_layout l;
	const char *why;
	uint8_t expect[32] = { 2, 0, 1, 0, 3, 0, 0, 0 };
	uint64_t hz = 2400000000ull, bs = BSIZE;

	synth_region_create(&r, 2, BSIZE, FDR_CTL_CONSTANT_TSC | FDR_CTL_NONSTOP_TSC, hz);
	synth_fill(&r, 0, 0, 100, 100, 0, 1000, 1, 2);
	memcpy(expect + 8, &hz, 8);
	memcpy(expect + 16, &bs, 8);
	log_layout_build(r.ro, r.len, NULL, &l, &why);
	tap_ok(memcmp(&l.header, expect, 32) == 0,
	       "header: v2, FDR, flags 3, tsc_hz, ThreadBufferSize at 16, zeros after");
	log_layout_free(&l);

	r.ctl->flags = FDR_CTL_NONSTOP_TSC | FDR_CTL_CRASH_FINALIZE;
	log_layout_build(r.ro, r.len, NULL, &l, &why);
	tap_ok(l.header.flags == FDR_LOG_FLAG_NONSTOP_TSC,
	       "header flags map only CONSTANT/NONSTOP (got %u)", l.header.flags);
	log_layout_free(&l);
	synth_region_destroy(&r);
}

static void test_order_and_offsets(void)
{
	struct synth_region r;
	struct log_layout l;
	const char *why;
	uint64_t e[4];
	int ok;

	synth_region_create(&r, 6, BSIZE, 0, 1000000000);
	e[0] = synth_fill(&r, 3, 10, 1, 1, 0, 100, 1, 1);
	e[1] = synth_fill(&r, 0, 11, 2, 1, 1, 200, 2, 5);
	e[2] = synth_fill(&r, 5, 12, 3, 1, 0, 300, 3, 3);
	e[3] = synth_fill(&r, 1, 13, 4, 2, 1, 400, 4, 1000);	/* full */
	/* buffer 2: extents 0; buffer 4: an older generation */
	synth_fill(&r, 4, 1, 9, 9, 0, 1, 1, 1);
	synth_desc(&r, 4)->generation = 6;
	log_layout_build(r.ro, r.len, NULL, &l, &why);
	tap_ok(l.nr_buffers == 4, "four buffers kept (got %zu)", l.nr_buffers);
	tap_ok(l.nr_empty == 1 && l.nr_other_generation == 1,
	       "empty and stale-generation buffers skipped");
	ok = l.nr_buffers == 4 && l.buffers[0].index == 3 && l.buffers[1].index == 0 &&
	     l.buffers[2].index == 5 && l.buffers[3].index == 1;
	tap_ok(ok, "buffers in seq order, not index order");
	ok = l.nr_buffers == 4;
	for (size_t i = 0; ok && i < 4; i++)
		ok = l.buffers[i].len == e[i] && l.buffers[i].data == synth_buffer(&r, l.buffers[i].index) -
			(const uint8_t *)r.ctl + (const uint8_t *)r.ro;
	tap_ok(ok, "each buffer contributes exactly its extents from its start");
	tap_ok(e[3] == BSIZE, "a full buffer is written whole (%llu)", (unsigned long long)e[3]);
	ok = l.nr_buffers == 4 && l.buffers[0].file_offset == 32;
	for (size_t i = 1; ok && i < 4; i++)
		ok = l.buffers[i].file_offset == l.buffers[i - 1].file_offset + 16 + e[i - 1];
	tap_ok(ok && l.file_size == 32 + 4 * 16 + e[0] + e[1] + e[2] + e[3],
	       "pieces back to back, no gaps; file size %llu", (unsigned long long)l.file_size);
	ok = l.nr_buffers == 4;
	for (size_t i = 0; ok && i < 4; i++) {
		uint64_t n;

		memcpy(&n, l.buffers[i].extents_record.data, 8);
		ok = l.buffers[i].extents_record.type_kind == 0x0f && n == e[i];
		for (int k = 8; ok && k < 15; k++)
			ok = l.buffers[i].extents_record.data[k] == 0;
	}
	tap_ok(ok, "BufferExtents records: 0x0f, u64 N, zero padding");
	tap_ok(l.records == (3 + 2) + (3 + 10) + (3 + 6) + (3 + (BSIZE - 48) / 8),
	       "record count (%llu)", (unsigned long long)l.records);
	log_layout_free(&l);
	synth_region_destroy(&r);
}

static void test_hostile(void)
{
	struct synth_region r;
	struct log_layout l;
	const char *why;
	uint8_t rec[16];
	uint64_t full, good;

	synth_region_create(&r, 8, BSIZE, 0, 1000000000);
	/* 0: extents far beyond the buffer -> clamped, kept whole */
	full = synth_fill(&r, 0, 0, 1, 1, 0, 1, 1, 1000);
	synth_desc(&r, 0)->extents = 1ull << 40;
	/* 1: garbage after valid records -> cut at the last good record */
	good = synth_fill(&r, 1, 1, 2, 1, 0, 1, 1, 4);
	synth_metadata(rec, 12);	/* kind >= 10 */
	synth_append(&r, 1, rec, 16);
	/* 2: no NewBuffer first -> dropped */
	synth_fill(&r, 2, 2, 3, 1, 0, 1, 1, 4);
	synth_buffer(&r, 2)[0] = 0x09;
	/* 3: only the preamble (extents 32) -> dropped */
	synth_fill(&r, 3, 3, 4, 1, 0, 1, 1, 0);
	synth_desc(&r, 3)->extents = 32;
	/* 4: an extents cutting a function record in half -> cut before it */
	synth_fill(&r, 4, 4, 5, 1, 0, 1, 1, 2);
	synth_desc(&r, 4)->extents -= 4;
	/* 5: a custom event whose payload runs past the extents -> cut */
	synth_fill(&r, 5, 5, 6, 1, 0, 1, 1, 1);
	synth_metadata(rec, FDR_MD_CUSTOM_EVENT);
	rec[1] = 64;
	synth_append(&r, 5, rec, 16);
	synth_append(&r, 5, "payload!", 8);
	/* 6: a valid custom event (8 bytes payload) and a CallArgument */
	synth_fill(&r, 6, 6, 7, 1, 0, 1, 1, 1);
	rec[1] = 8;
	synth_append(&r, 6, rec, 16);
	synth_append(&r, 6, "payload!", 8);
	synth_function(rec, FDR_FN_ENTER_ARG, 3, 5);
	synth_append(&r, 6, rec, 8);
	synth_metadata(rec, FDR_MD_CALL_ARGUMENT);
	synth_append(&r, 6, rec, 16);
	/* 7: a CallArgument right after NewCPUId -> cut before it */
	synth_fill(&r, 7, 7, 8, 1, 0, 1, 1, 0);
	synth_append(&r, 7, rec, 16);

	log_layout_build(r.ro, r.len, NULL, &l, &why);
	tap_ok(l.nr_clamped == 1 && l.buffers[0].len == full && full == BSIZE,
	       "extents beyond buffer_size clamped to buffer_size");
	tap_ok(l.buffers[1].index == 1 && l.buffers[1].len == good,
	       "garbage record: buffer cut at the last valid record (%llu of %llu)",
	       (unsigned long long)l.buffers[1].len, (unsigned long long)good + 16);
	tap_ok(l.nr_buffers == 6 && l.buffers[2].index == 4 && l.buffers[3].index == 5 &&
	       l.buffers[4].index == 6 && l.buffers[5].index == 7,
	       "buffer without NewBuffer and preamble-only buffer dropped");
	tap_ok(l.buffers[2].len == 48 + 3 * 8, "half a function record cut off (%llu)",
	       (unsigned long long)l.buffers[2].len);
	tap_ok(l.buffers[3].len == 48 + 16, "event running past the extents cut off");
	tap_ok(l.buffers[4].len == synth_desc(&r, 6)->extents,
	       "valid custom event and call argument kept whole");
	tap_ok(l.buffers[5].len == 48, "CallArgument after NewCPUId cut off");
	tap_ok(l.nr_problems == 6, "six problems reported (got %zu)", l.nr_problems);
	tap_ok(l.nr_problems >= 2 && l.problems[0].index == 1 && l.problems[0].at == good &&
	       l.problems[0].kept == good && l.problems[1].index == 2 &&
	       l.problems[1].kept == 0 && l.problems[1].at == 0,
	       "problems name the buffer, the bad offset and what was kept");
	for (size_t i = 0; i < l.nr_problems; i++)
		tap_diag("buffer %u: %s at %llu, kept %llu", l.problems[i].index,
			 l.problems[i].what, (unsigned long long)l.problems[i].at,
			 (unsigned long long)l.problems[i].kept);
	log_layout_free(&l);
	synth_region_destroy(&r);
}

static void test_nothing_and_bad_control(void)
{
	struct synth_region r;
	struct log_layout l;
	const char *why;
	int ret;

	synth_region_create(&r, 4, BSIZE, 0, 1);
	ret = log_layout_build(r.ro, r.len, NULL, &l, &why);
	tap_ok(ret == 0 && l.nr_buffers == 0 && l.file_size == 0,
	       "no data: nothing to write");
	log_layout_free(&l);

	ret = log_layout_build(r.ro, r.len - 1, NULL, &l, &why);
	tap_ok(ret < 0 && why && strstr(why, "outside the mapping"),
	       "buffers beyond the mapping refused (%s)", why ? why : "-");
	r.ctl->nr_buffers = 1u << 30;
	ret = log_layout_build(r.ro, r.len, NULL, &l, &why);
	tap_ok(ret < 0 && why, "absurd nr_buffers refused (%s)", why ? why : "-");
	r.ctl->nr_buffers = 4;
	r.ctl->buffer_size = 1000;
	ret = log_layout_build(r.ro, r.len, NULL, &l, &why);
	tap_ok(ret < 0 && why, "buffer_size not a page multiple refused (%s)", why ? why : "-");
	r.ctl->buffer_size = BSIZE;
	r.ctl->magic = 0;
	ret = log_layout_build(r.ro, r.len, NULL, &l, &why);
	tap_ok(ret < 0 && why && strstr(why, "magic"), "bad magic refused");
	synth_region_destroy(&r);
}

int main(void)
{
	test_header();
	test_order_and_offsets();
	test_hostile();
	test_nothing_and_bad_control();
	return tap_done();
}
