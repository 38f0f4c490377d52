// SPDX-License-Identifier: MIT
/*
 * fuzz_sched.c - libFuzzer target: any byte string is a candidate .sched
 * file.  When it opens, every thread's records are walked (the off-CPU
 * times replay prints), and intervals between its records are split:
 * the four parts must add up to the interval, whatever the file says.
 * Built with -fsanitize=fuzzer,address,undefined.
 */
#include <stdlib.h>
#include <fdr_reader.h>
#include "off_cpu.h"

static void check_split(const struct fdr_sched *s, int32_t tid, uint64_t a, uint64_t b)
{
	struct fdr_sched_split x;

	fdr_sched_thread_split(s, tid, a, b, &x);
	if (x.on_cpu + x.runnable + x.blocked + x.unknown != (b > a ? b - a : 0))
		abort();
	if (fdr_sched_state_at(s, tid, a) > FDR_THREAD_UNKNOWN)
		abort();
}

static void check_thread(const struct fdr_sched *s, const struct fdr_sched_thread *th)
{
	struct off_cpu off;
	size_t i = 0;

	if (fdr_sched_thread_find(s, th->tid) != th)
		abort();
	while (off_cpu_next(th, &i, &off))
		if (off.end < off.start || i > th->count)
			abort();
	for (size_t k = 0; k < th->count; k++) {
		const uint64_t t = th->records[k].tsc, u = th->records[th->count - 1 - k].tsc;

		if (k && th->records[k - 1].tsc > t)
			abort();	/* sorted */
		check_split(s, th->tid, t, u);
		check_split(s, th->tid, t ? t - 1 : 0, t + 1);
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fdr_reader_error err;
	struct fdr_sched *s;

	if (fdr_sched_open_memory(&s, data, size, &err))
		return 0;
	for (size_t i = 0; i < fdr_sched_thread_count(s) && i < 64; i++)
		check_thread(s, fdr_sched_thread_at(s, i));
	check_split(s, 0, 0, UINT64_MAX);
	fdr_sched_close(s);
	return 0;
}
