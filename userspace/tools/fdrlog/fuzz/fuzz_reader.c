// SPDX-License-Identifier: MIT
/*
 * fuzz_reader.c - libFuzzer target: any byte string is a candidate log.
 * Runs the record walk, verify, expansion (sorted and not) and every
 * output writer of fdrlog (YAML, Chrome, account, replay, flame, the
 * llvm-xray export), and checks that verify and expansion agree on
 * whether the log is valid, and the records and events on which are drop
 * markers, and that the streamed sorted YAML (fdr_trace_stream_sorted)
 * is the built trace's byte for byte.  Built with -fsanitize=fuzzer,address,undefined.
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
#include <fdr_reader.h>
#include "convert.h"
#include "graph.h"
#include "view_filter.h"

struct touched { unsigned sum; size_t drops; };

static int touch_record(const struct fdr_record *rec, void *ctx)
{
	struct touched *t = ctx;

	t->sum += rec->kind + rec->length;
	if (rec->payload && rec->event_size > 0)
		t->sum += rec->payload[rec->event_size - 1];
	t->drops += fdr_record_drop_marker(rec, NULL);
	return 0;
}

/* The drop-marker rule must say the same of a record and of its event. */
static size_t event_drops(const struct fdr_trace *t)
{
	size_t n = 0;

	for (size_t i = 0; i < t->count; i++)
		n += fdr_event_drop_marker(t, &t->events[i], NULL);
	return n;
}

static struct out_buffer out;

/* The YAML of write_yaml_stream (the sorted stream) must be write_yaml's. */
static void check_yaml_stream(const struct fdr_log *log, const struct fdr_trace *sorted)
{
	struct out_buffer a, b;
	struct fdr_reader_error err;

	if (out_init(&a, -1) || out_init(&b, -1))
		abort();
	write_yaml(&a, sorted, NULL);
	if (write_yaml_stream(&b, log, NULL, &err) || a.error || b.error || a.len != b.len ||
	    memcmp(a.buf, b.buf, a.len))
		abort();
	out_release(&a);
	out_release(&b);
}

static int count_event(const struct fdr_trace *t, const struct fdr_event *ev, void *ctx)
{
	(void)t;
	(void)ev;
	++*(size_t *)ctx;
	return 0;
}

static void write_everything(const struct fdr_trace *t)
{
	struct account_options ao = { SORT_SUM, 1, 0, NULL };
	/* a depth and a time filter: the filters' walk meets every byte too */
	struct filter_opts filter = { .max_depth = 3, .min_ns = 1 };
	static const int32_t fid1[] = { 1 };
	struct graph_request whole = { .prog = "fuzz", .log = "fuzz" };
	struct graph_request one = { .fids = fid1, .nfids = 1, .prog = "fuzz", .log = "fuzz" };
	size_t enters, exits;

	write_yaml(&out, t, NULL);
	write_chrome(&out, t, NULL, NULL, NULL, NULL);
	if (write_account(&out, t, NULL, &ao) || write_replay(&out, t, NULL, NULL, NULL, NULL, &filter, false) ||
	    write_flame(&out, t, NULL, &filter, "fuzz") ||
	    write_graph(&out, t, NULL, &filter, &whole) || write_graph(&out, t, NULL, &filter, &one) ||
	    write_llvm_export(&out, t, NULL, &enters, &exits))
		abort();
	out.len = 0;	/* discard: only the code paths matter */
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fdr_reader_error err;
	struct fdr_trace sorted, unsorted;
	struct fdr_log *log;
	struct touched touched = { 0, 0 };
	int valid;

	if (!out.buf && out_init(&out, open("/dev/null", O_WRONLY)))
		abort();
	if (fdr_log_open_memory(&log, data, size, &err))
		return 0;
	fdr_log_for_each_record(log, touch_record, &touched, &err);
	valid = fdr_log_verify(log, &err) == 0;
	if ((fdr_trace_build(&sorted, log, FDR_TRACE_SORT_BY_TSC, &err) == 0) != valid)
		abort();	/* verify and expansion must agree */
	if (!valid) {
		size_t n = 0;

		if (fdr_trace_stream_sorted(log, count_event, &n, &err) != -1 || n)
			abort();	/* nor does the sorted stream hand out anything */
	}
	if (valid) {
		check_yaml_stream(log, &sorted);
		if (fdr_trace_build(&unsorted, log, 0, &err) || unsorted.count != sorted.count ||
		    event_drops(&sorted) != touched.drops)
			abort();
		for (size_t i = 1; i < sorted.count; i++)
			if (fdr_trace_at(&sorted, i - 1)->tsc > fdr_trace_at(&sorted, i)->tsc)
				abort();
		write_everything(&sorted);
		fdr_trace_free(&sorted);
		fdr_trace_free(&unsorted);
	}
	fdr_log_close(log);
	return 0;
}
