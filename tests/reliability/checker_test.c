// SPDX-License-Identifier: MIT
/*
 * checker_test.c - the stress checks must be able to fail.  Synthetic
 * logs in the writers' pattern, then one defect each (a buffer lost,
 * reordered or duplicated, a record changed or cut, a CallArgument
 * missing, a confirmed range the log does not hold): the scan, the
 * pattern check or the tally check must each time say no.  A ring that
 * recycled buffers may lose any of them, so there a lost buffer is no
 * failure - but a stream that goes back or repeats, a changed record, and
 * a buffer whose first records are not the end of the pair before its
 * first EnterArg still are.  TAP.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/fdr_log.h>
#include "log_check.h"
#include "log_scan.h"
#include "pattern.h"
#include "tap.h"

#define PAIRS		90
#define PAIRS_PER_BUF	30	/* 3 buffers per thread */
#define BUF_SIZE	4096

/* One buffer's body (NewBuffer onwards) before assembly. */
struct sbuf {
	uint8_t b[BUF_SIZE];
	size_t n;
};

struct synth {
	struct sbuf bufs[16];
	unsigned nr;
};

static void md(struct sbuf *s, unsigned kind, const void *payload, size_t len)
{
	uint8_t r[FDR_METADATA_SIZE] = { FDR_MD_FIRST_BYTE(kind) };

	memcpy(r + 1, payload, len);
	memcpy(s->b + s->n, r, sizeof(r));
	s->n += sizeof(r);
}

static void fn(struct sbuf *s, unsigned kind, uint32_t fid)
{
	uint32_t w[2] = { FDR_FN_WORD0(kind, fid), 10 };

	memcpy(s->b + s->n, w, sizeof(w));
	s->n += sizeof(w);
}

static void pair(struct sbuf *s, uint32_t uid, uint64_t k)
{
	uint64_t arg = pattern_arg(uid, k);

	fn(s, FDR_FN_ENTER_ARG, pattern_outer(uid, k));
	md(s, FDR_MD_CALL_ARGUMENT, &arg, 8);
	if (pattern_has_inner(k)) {
		fn(s, FDR_FN_ENTER, pattern_inner(uid, k));
		fn(s, FDR_FN_EXIT, pattern_inner(uid, k));
	}
	fn(s, FDR_FN_EXIT, pattern_outer(uid, k));
}

static void new_buffer(struct synth *y, int32_t tid)
{
	uint8_t wall[12] = { 1 }, cpu[10] = { 0 };
	struct sbuf *s = &y->bufs[y->nr++];

	s->n = 0;
	md(s, FDR_MD_NEW_BUFFER, &tid, 4);
	md(s, FDR_MD_WALLTIME, wall, 12);
	md(s, FDR_MD_NEW_CPU_ID, cpu, 10);
}

/* Thread tid (writer uid) as 3 buffers of PAIRS_PER_BUF pairs. */
static void thread(struct synth *y, int32_t tid, uint32_t uid)
{
	for (uint64_t k = 0; k < PAIRS; k++) {
		if (k % PAIRS_PER_BUF == 0)
			new_buffer(y, tid);
		pair(&y->bufs[y->nr - 1], uid, k);
	}
}

/* The same, with buffers full in the middle of an odd pair: each new
 * buffer begins with the Enter, Exit of its inner call and the Exit of
 * its outer one. */
static void thread_cut(struct synth *y, int32_t tid, uint32_t uid)
{
	new_buffer(y, tid);
	for (uint64_t k = 0; k < PAIRS; k++) {
		struct sbuf *s = &y->bufs[y->nr - 1];
		uint64_t arg = pattern_arg(uid, k);

		if (k % PAIRS_PER_BUF != PAIRS_PER_BUF / 2 || k % 2 == 0) {
			pair(s, uid, k);
			continue;
		}
		fn(s, FDR_FN_ENTER_ARG, pattern_outer(uid, k));
		md(s, FDR_MD_CALL_ARGUMENT, &arg, 8);
		new_buffer(y, tid);
		s = &y->bufs[y->nr - 1];
		fn(s, FDR_FN_ENTER, pattern_inner(uid, k));
		fn(s, FDR_FN_EXIT, pattern_inner(uid, k));
		fn(s, FDR_FN_EXIT, pattern_outer(uid, k));
	}
}

/* Header + BufferExtents-framed buffers, in `order` (-1 ends). */
static size_t assemble(const struct synth *y, const int *order, uint8_t *out)
{
	struct fdr_log_header h = { .version = 2, .type = FDR_LOG_TYPE_FDR,
				    .cycle_frequency = 1000000000,
				    .buffer_size = BUF_SIZE };
	size_t n = sizeof(h);

	memcpy(out, &h, sizeof(h));
	for (; *order >= 0; order++) {
		const struct sbuf *s = &y->bufs[*order];
		uint8_t r[FDR_METADATA_SIZE] = { FDR_MD_FIRST_BYTE(FDR_MD_BUFFER_EXTENTS) };
		uint64_t ext = s->n;

		memcpy(r + 1, &ext, 8);
		memcpy(out + n, r, sizeof(r));
		memcpy(out + n + sizeof(r), s->b, s->n);
		n += sizeof(r) + s->n;
	}
	return n;
}

struct verdict {
	bool scanned;
	uint64_t pattern_failures, tally_failures, pairs;
};

static struct verdict judge_ring(const uint8_t *log, size_t n,
				 const struct tally *t, bool lossy)
{
	struct verdict v = { 0 };
	struct check_result r = { 0 };
	struct scan_log scan;

	v.scanned = scan_log_bytes(log, n, &scan) == 0;
	if (v.scanned) {
		check_pattern(&scan, lossy, &r);
		v.pattern_failures = r.failures;
		v.pairs = r.pairs;
		r.failures = 0;
		if (t)
			check_tally(t, 0, 1, &r);
		v.tally_failures = r.failures;
	}
	check_result_free(&r);
	scan_log_free(&scan);
	return v;
}

/* A ring that lost nothing: every rule. */
static struct verdict judge(const uint8_t *log, size_t n, const struct tally *t)
{
	return judge_ring(log, n, t, false);
}

/* A ring that recycled buffers: lost buffers allowed, nothing else. */
static uint64_t lossy_failures(const struct synth *y, const int *order)
{
	static uint8_t log[64 * BUF_SIZE];
	size_t n = assemble(y, order, log);
	struct verdict v = judge_ring(log, n, NULL, true);

	return v.scanned ? v.pattern_failures : 1;
}

/* Buffers cut mid-pair (thread_cut), under both rules. */
static void test_lossy(void)
{
	static struct synth y;
	const int in_order[] = { 0, 1, 2, 3, -1 };
	const int lost[] = { 0, 2, 3, -1 };
	const int lost_first[] = { 1, 3, -1 };
	const int from_third[] = { 2, 3, -1 };
	const int swapped[] = { 0, 2, 1, 3, -1 };
	const int twice[] = { 0, 1, 2, 2, 3, -1 };
	static uint8_t log[64 * BUF_SIZE];
	struct verdict v;

	thread_cut(&y, 12, 7);	/* buffers 0..3 */
	v = judge(log, assemble(&y, in_order, log), NULL);
	tap_ok(v.scanned && !v.pattern_failures && v.pairs == PAIRS,
	       "buffers full mid-pair pass: %llu pairs", (unsigned long long)v.pairs);
	tap_ok(judge(log, assemble(&y, lost, log), NULL).pattern_failures,
	       "a ring that lost nothing: a buffer lost mid-pair is a pattern failure");
	tap_ok(lossy_failures(&y, lost) == 0 && lossy_failures(&y, lost_first) == 0,
	       "a ring that recycled: buffers lost in the middle or at the start pass");
	tap_ok(lossy_failures(&y, swapped) != 0,
	       "a ring that recycled: buffers out of order are a pattern failure");
	tap_ok(lossy_failures(&y, twice) != 0,
	       "a ring that recycled: a buffer written twice is a pattern failure");
	y.bufs[2].b[3 * FDR_METADATA_SIZE] ^= 0x10;	/* its first record's fid */
	tap_ok(lossy_failures(&y, lost) != 0,
	       "a ring that recycled: a first record that does not end the pair before is a pattern failure");
	tap_ok(judge(log, assemble(&y, from_third, log), NULL).pattern_failures,
	       "a stream that starts with records not ending the pair before is a pattern failure");
	y.bufs[2].b[3 * FDR_METADATA_SIZE] ^= 0x10;
	y.bufs[2].b[3 * FDR_METADATA_SIZE + 3 * FDR_FUNCTION_SIZE] ^= 0x10;
	tap_ok(lossy_failures(&y, lost) != 0,
	       "a ring that recycled: a changed record inside a buffer is a pattern failure");
}

static struct tally *tally_of(uint64_t last5, uint64_t last6, bool ghost)
{
	struct tally *t = tally_create(16);

	tally_append(t, 5, 1, 0, last5);
	tally_append(t, 6, 1, 10, last6);
	if (ghost)
		tally_append(t, 7, 1, 0, 0);	/* a thread the log lacks */
	tally_append(t, 5, 2, 0, 500);		/* another generation: ignored */
	return t;
}

int main(void)
{
	static struct synth y;
	static uint8_t log[64 * BUF_SIZE];
	const int in_order[] = { 0, 3, 1, 4, 2, 5, -1 };
	const int lost[] = { 0, 3, 4, 2, 5, -1 };		/* tid 10's 2nd buffer */
	const int swapped[] = { 0, 3, 2, 4, 1, 5, -1 };
	const int twice[] = { 0, 3, 1, 4, 1, 2, 5, -1 };
	struct tally *good = tally_of(PAIRS - 1, PAIRS - 1, false);
	struct verdict v;
	size_t n;

	thread(&y, 10, 5);	/* buffers 0, 1, 2 */
	thread(&y, 11, 6);	/* buffers 3, 4, 5 */

	n = assemble(&y, in_order, log);
	v = judge(log, n, good);
	tap_ok(v.scanned && !v.pattern_failures && !v.tally_failures && v.pairs == 2 * PAIRS,
	       "a clean log passes: %llu pairs", (unsigned long long)v.pairs);

	n = assemble(&y, lost, log);
	v = judge(log, n, good);
	tap_ok(v.scanned && v.pattern_failures, "a lost buffer is a pattern failure");

	n = assemble(&y, swapped, log);
	tap_ok(judge(log, n, NULL).pattern_failures, "buffers out of order are a pattern failure");

	n = assemble(&y, twice, log);
	tap_ok(judge(log, n, NULL).pattern_failures, "a buffer written twice is a pattern failure");

	n = assemble(&y, in_order, log);
	log[n - 8 - 8 + 0] ^= 0x10;	/* the last Exit's fid, of tid 11 */
	tap_ok(judge(log, n, NULL).pattern_failures, "a changed function id is a pattern failure");

	n = assemble(&y, in_order, log);
	tap_ok(!judge(log, n - 3, NULL).scanned, "a record cut by the end of the file fails the scan");

	y.bufs[0].b[3 * FDR_METADATA_SIZE + FDR_FUNCTION_SIZE] = FDR_MD_FIRST_BYTE(FDR_MD_WALLTIME);
	n = assemble(&y, in_order, log);
	v = judge(log, n, NULL);
	tap_ok(v.scanned && v.pattern_failures, "an EnterArg without its CallArgument is a pattern failure");
	y.nr = 0;
	thread(&y, 10, 5);
	thread(&y, 11, 6);

	n = assemble(&y, in_order, log);
	v = judge(log, n, tally_of(PAIRS, PAIRS - 1, false));
	tap_ok(!v.pattern_failures && v.tally_failures == 1,
	       "a confirmed pair beyond the log is a tally failure");
	v = judge(log, n, tally_of(PAIRS - 1, PAIRS - 1, true));
	tap_ok(!v.pattern_failures && v.tally_failures == 1,
	       "a confirmed thread missing from the log is a tally failure");
	n = assemble(&y, lost, log);
	v = judge(log, n, tally_of(20, PAIRS - 1, false));
	tap_ok(v.tally_failures == 0,
	       "pairs confirmed before the lost buffer still count as present");
	test_lossy();
	return tap_done();
}
