// SPDX-License-Identifier: MIT
/*
 * test_reader_api.c - libfdrread's public API on byte tables built here:
 * the decoded fields of every record, expanded events (absolute TSC, cpu,
 * tid, pid, args, payload), v1 padding skip, the stable TSC order, error
 * offsets and record names, and the file-opening errors.  TAP on stdout.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fdr_reader.h>

static int n_tests, n_failed;

static void check(int cond, const char *what)
{
	n_tests++;
	if (!cond)
		n_failed++;
	printf("%sok %d %s\n", cond ? "" : "not ", n_tests, what);
}

/* A growing log image. */
struct img { uint8_t b[262144]; size_t n; };

static void put(struct img *m, const void *p, size_t n) { memcpy(m->b + m->n, p, n); m->n += n; }

static void header(struct img *m, uint16_t version, uint64_t bufsize)
{
	struct fdr_log_header h = { version, FDR_LOG_TYPE_FDR, 3, 1000000000ull, bufsize, { 0 } };

	m->n = 0;
	put(m, &h, sizeof(h));
}

static void md(struct img *m, unsigned kind, const void *payload, size_t n)
{
	uint8_t r[16] = { FDR_MD_FIRST_BYTE(kind) };

	if (n)
		memcpy(r + 1, payload, n);
	put(m, r, 16);
}

static void md_u64(struct img *m, unsigned kind, uint64_t v) { md(m, kind, &v, 8); }
static void md_i32(struct img *m, unsigned kind, int32_t v) { md(m, kind, &v, 4); }

static void cpu(struct img *m, uint16_t c, uint64_t tsc)
{
	uint8_t p[10];

	memcpy(p, &c, 2);
	memcpy(p + 2, &tsc, 8);
	md(m, FDR_MD_NEW_CPU_ID, p, 10);
}

static void wall(struct img *m, uint64_t sec, uint32_t usec)
{
	uint8_t p[12];

	memcpy(p, &sec, 8);
	memcpy(p + 8, &usec, 4);
	md(m, FDR_MD_WALLTIME, p, 12);
}

static void fn(struct img *m, unsigned kind, uint32_t fid, uint32_t delta)
{
	struct fdr_function_record r = { FDR_FN_WORD0(kind, fid), delta };

	put(m, &r, 8);
}

static void custom_v5(struct img *m, const char *data, int32_t delta)
{
	int32_t p[2] = { (int32_t)strlen(data), delta };

	md(m, FDR_MD_CUSTOM_EVENT, p, 8);
	put(m, data, strlen(data));
}

/* The worked example of the format draft (../shared/FORMAT.md §8), plus an EnterArg with one argument. */
static void build_v2(struct img *m)
{
	size_t ext;

	header(m, 2, 16384);
	ext = m->n;
	md_u64(m, FDR_MD_BUFFER_EXTENTS, 0);
	md_i32(m, FDR_MD_NEW_BUFFER, 1234);
	wall(m, 1700000000, 250000);
	cpu(m, 3, 0x1000);
	fn(m, FDR_FN_ENTER, 1, 0);
	fn(m, FDR_FN_ENTER_ARG, 2, 7);
	md_u64(m, FDR_MD_CALL_ARGUMENT, 0xdeadbeefcafeull);
	fn(m, FDR_FN_EXIT, 2, 3);
	fn(m, FDR_FN_EXIT, 1, 100);
	{
		uint64_t n = m->n - ext - 16;

		memcpy(m->b + ext + 1, &n, 8);
	}
}

struct seen { int n; struct fdr_record r[16]; };

static int collect(const struct fdr_record *rec, void *ctx)
{
	struct seen *s = ctx;

	if (s->n < 16)
		s->r[s->n] = *rec;
	s->n++;
	return 0;
}

static void test_records(void)
{
	struct img m;
	struct seen s = { 0 };
	struct fdr_reader_error err;
	struct fdr_log *log;

	build_v2(&m);
	check(fdr_log_open_memory(&log, m.b, m.n, &err) == 0, "open_memory accepts a v2 log");
	check(fdr_log_get_header(log)->version == 2 &&
	      fdr_log_get_header(log)->cycle_frequency == 1000000000ull &&
	      fdr_log_get_header(log)->buffer_size == 16384, "header fields decoded");
	check(fdr_log_for_each_record(log, collect, &s, &err) == 0 && s.n == 9,
	      "record walk yields the 9 records");
	check(s.r[0].is_metadata && s.r[0].kind == FDR_MD_BUFFER_EXTENTS &&
	      s.r[0].value == 96 && s.r[0].offset == 32, "BufferExtents: size 96 at offset 32");
	check(s.r[1].kind == FDR_MD_NEW_BUFFER && s.r[1].id == 1234, "NewBuffer tid 1234");
	check(s.r[2].kind == FDR_MD_WALLTIME && s.r[2].value == 1700000000 &&
	      s.r[2].usec == 250000, "Walltime seconds and micros");
	check(s.r[3].kind == FDR_MD_NEW_CPU_ID && s.r[3].cpu == 3 && s.r[3].value == 0x1000,
	      "NewCPUId cpu and unaligned tsc");
	check(!s.r[5].is_metadata && s.r[5].kind == FDR_FN_ENTER_ARG && s.r[5].func_id == 2 &&
	      s.r[5].delta == 7 && s.r[5].offset == 104 && s.r[5].length == 8,
	      "EnterArg fid 2 delta 7 at offset 104");
	check(s.r[6].kind == FDR_MD_CALL_ARGUMENT && s.r[6].value == 0xdeadbeefcafeull,
	      "CallArgument value");
	check(fdr_log_verify(log, &err) == 0, "verify accepts it");
	fdr_log_close(log);
}

static void test_trace(void)
{
	struct img m;
	struct fdr_reader_error err;
	struct fdr_trace t;
	struct fdr_log *log;
	const struct fdr_event *e;
	const uint64_t *args;
	uint32_t n;

	build_v2(&m);
	fdr_log_open_memory(&log, m.b, m.n, &err);
	check(fdr_trace_build(&t, log, FDR_TRACE_SORT_BY_TSC, &err) == 0 && t.count == 4,
	      "trace has 4 events");
	e = fdr_trace_at(&t, 0);
	check(e->tsc == 0x1000 && e->cpu == 3 && e->tid == 1234 && e->pid == 1234 &&
	      e->kind == FDR_EVENT_ENTER && e->func_id == 1,
	      "first event: Enter f1 at 0x1000, cpu 3, tid 1234, pid = tid (v2)");
	e = fdr_trace_at(&t, 1);
	args = fdr_event_args(&t, e, &n);
	check(e->kind == FDR_EVENT_ENTER_ARG && e->tsc == 0x1007 && n == 1 &&
	      args[0] == 0xdeadbeefcafeull, "EnterArg at 0x1007 with its argument");
	e = fdr_trace_at(&t, 3);
	check(e->kind == FDR_EVENT_EXIT && e->tsc == 0x1000 + 7 + 3 + 100,
	      "deltas accumulate: last Exit at 0x106e");
	fdr_trace_free(&t);
	fdr_log_close(log);
}

/* v5: a negative custom-event delta moves BaseTSC back; Pid sets pid. */
static void test_v5_events(void)
{
	struct img m;
	struct fdr_reader_error err;
	struct fdr_trace t;
	struct fdr_log *log;
	const struct fdr_event *e;
	const uint8_t *p;
	size_t ext;
	uint32_t n;
	uint64_t len;

	header(&m, 5, 0);
	ext = m.n;
	md_u64(&m, FDR_MD_BUFFER_EXTENTS, 0);
	md_i32(&m, FDR_MD_NEW_BUFFER, 9);
	wall(&m, 1, 1);
	md_i32(&m, FDR_MD_PID, 4242);
	cpu(&m, 1, 1000);
	fn(&m, FDR_FN_ENTER, 5, 10);
	custom_v5(&m, "abc", -4);
	fn(&m, FDR_FN_EXIT, 5, 1);
	len = m.n - ext - 16;
	memcpy(m.b + ext + 1, &len, 8);
	fdr_log_open_memory(&log, m.b, m.n, &err);
	check(fdr_trace_build(&t, log, 0, &err) == 0 && t.count == 3, "v5 trace has 3 events");
	e = &t.events[1];
	p = fdr_event_payload(&t, e, &n);
	check(e->kind == FDR_EVENT_CUSTOM && e->tsc == 1006 && n == 3 && !memcmp(p, "abc", 3) &&
	      e->func_id == 5 && e->pid == 4242 && e->tid == 9,
	      "custom event: tsc 1010-4, payload, keeps the last fid (as LLVM)");
	check(t.events[2].tsc == 1007, "function delta counts from the event's TSC");
	fdr_trace_free(&t);
	fdr_log_close(log);
}

/* v1: the bytes after EndOfBuffer up to ThreadBufferSize are skipped. */
static void test_v1_padding(void)
{
	struct img m;
	struct fdr_reader_error err;
	struct seen s = { 0 };
	struct fdr_log *log;

	header(&m, 1, 256);
	md_i32(&m, FDR_MD_NEW_BUFFER, 1);
	wall(&m, 1, 1);
	cpu(&m, 0, 50);
	fn(&m, FDR_FN_ENTER, 1, 0);
	md(&m, FDR_MD_END_OF_BUFFER, NULL, 0);
	memset(m.b + m.n, 0xAB, 256 - 72);	/* garbage padding: must never be parsed */
	m.n += 256 - 72;
	md_i32(&m, FDR_MD_NEW_BUFFER, 2);
	wall(&m, 1, 2);
	cpu(&m, 0, 60);
	fn(&m, FDR_FN_EXIT, 1, 0);
	fdr_log_open_memory(&log, m.b, m.n, &err);
	check(fdr_log_for_each_record(log, collect, &s, &err) == 0 && s.n == 9 &&
	      s.r[5].offset == 32 + 256 && s.r[5].id == 2,
	      "v1: second NewBuffer read at 32 + ThreadBufferSize, padding skipped");
	check(fdr_log_verify(log, &err) == 0, "v1 log with garbage padding verifies");
	fdr_log_close(log);
}

static void test_errors(void)
{
	struct img m;
	struct fdr_reader_error err;
	struct fdr_log *log;

	build_v2(&m);
	fdr_log_open_memory(&log, m.b, m.n - 4, &err);
	check(fdr_log_verify(log, &err) == -1 && err.offset == 136 &&
	      !strcmp(err.record, "Function") && strstr(err.message, "truncated"),
	      "cut log: error at offset 136, Function, truncated");
	fdr_log_close(log);

	/* Extents one record short: the last Exit lies past them. */
	build_v2(&m);
	m.b[33] -= 8;
	m.n -= 8;
	fdr_log_open_memory(&log, m.b, m.n, &err);
	check(fdr_log_verify(log, &err) == 0, "extents shortened with the file: still valid");
	fdr_log_close(log);
	build_v2(&m);
	m.b[33] -= 8;
	fdr_log_open_memory(&log, m.b, m.n, &err);
	check(fdr_log_verify(log, &err) == -1 && err.offset == 136 &&
	      !strcmp(err.record, "Function Exit") &&
	      strstr(err.message, "expected BufferExtents"),
	      "record after the extents end: offset 136, Function Exit, expected BufferExtents");
	fdr_log_close(log);

	build_v2(&m);
	m.b[0] = 9;
	check(fdr_log_open_memory(&log, m.b, m.n, &err) == -1 &&
	      strstr(err.message, "unsupported FDR version 9"), "version 9 is unsupported");
	check(fdr_log_open_memory(&log, m.b, 31, &err) == -1 &&
	      strstr(err.message, "found 31 bytes"), "31-byte file: truncated header");
	check(fdr_log_open_file(&log, "/nonexistent/x.log", &err) == -1 &&
	      strstr(err.message, "/nonexistent/x.log") &&
	      strstr(err.message, "No such file"), "missing file: message names path and cause");
}

/*
 * The TSC sort against a reference stable sort, on a log of n function
 * records whose TSCs jump around by TSCWrap: few runs take the merge path,
 * many runs (> 4096) the radix path.
 */
static void build_runs(struct img *m, unsigned n, unsigned period)
{
	m->n = 0;
	header(m, 1, 0);
	md_i32(m, FDR_MD_NEW_BUFFER, 1);
	wall(m, 1, 1);
	cpu(m, 0, 0);
	for (unsigned i = 0; i < n && m->n + 24 < sizeof(m->b); i++) {
		/* TSC pattern: (i % period) * 7 % 13, so equal keys recur often. */
		md_u64(m, FDR_MD_TSC_WRAP, (uint64_t)((i % period) * 7 % 13) << 33);
		fn(m, FDR_FN_ENTER, i + 1, 0);
	}
}

static void check_sorted_stable(unsigned n, unsigned period, const char *what)
{
	static struct img m;
	struct fdr_reader_error err;
	struct fdr_trace t;
	struct fdr_log *log;
	uint32_t *ref;
	int good = 1;

	build_runs(&m, n, period);
	fdr_log_open_memory(&log, m.b, m.n, &err);
	if (fdr_trace_build(&t, log, FDR_TRACE_SORT_BY_TSC, &err)) {
		check(0, what);
		return;
	}
	ref = malloc(sizeof(*ref) * t.count);
	for (size_t i = 0; i < t.count; i++) {	/* insertion sort: stable */
		size_t j = i;

		while (j > 0 && t.events[ref[j - 1]].tsc > t.events[i].tsc) {
			ref[j] = ref[j - 1];
			j--;
		}
		ref[j] = (uint32_t)i;
	}
	for (size_t i = 0; i < t.count; i++)
		good &= t.order[i] == ref[i];
	check(good && t.count > 0, what);
	free(ref);
	fdr_trace_free(&t);
	fdr_log_close(log);
}

/* A v2 custom event (absolute TSC) of n payload bytes. */
static void custom_v2(struct img *m, const void *data, int32_t n, uint64_t tsc)
{
	uint8_t p[12];

	memcpy(p, &n, 4);
	memcpy(p + 4, &tsc, 8);
	md(m, FDR_MD_CUSTOM_EVENT, p, 12);
	put(m, data, (size_t)n);
}

static void drop_event(struct img *m, const char *magic, uint64_t records, uint64_t tsc)
{
	struct fdr_drop_event d;

	memcpy(d.magic, magic, 8);
	d.records = records;
	custom_v2(m, &d, FDR_DROP_EVENT_SIZE, tsc);
}

/*
 * One buffer: a marker of 5 records, look-alikes that are only custom
 * events (magic off by one letter, 17 and 8 bytes, a typed event with the
 * marker's payload), and a marker of 2^64 - 1 records.
 */
static void build_drops(struct img *m)
{
	static const char long_payload[17] = FDR_DROP_EVENT_MAGIC "\5\0\0\0\0\0\0\0";
	struct fdr_drop_event d = { FDR_DROP_EVENT_MAGIC, 3 };
	uint8_t typed[10];
	size_t ext;
	int32_t size = FDR_DROP_EVENT_SIZE, delta = 1;
	uint16_t type = 9;

	header(m, 2, 16384);
	ext = m->n;
	md_u64(m, FDR_MD_BUFFER_EXTENTS, 0);
	md_i32(m, FDR_MD_NEW_BUFFER, 42);
	wall(m, 1700000000, 0);
	cpu(m, 1, 0x1000);
	drop_event(m, FDR_DROP_EVENT_MAGIC, 5, 0x1000);
	fn(m, FDR_FN_ENTER, 1, 1);
	drop_event(m, "fdr.dros", 6, 0x1002);
	custom_v2(m, long_payload, 17, 0x1003);
	custom_v2(m, FDR_DROP_EVENT_MAGIC, 8, 0x1004);
	memcpy(typed, &size, 4);
	memcpy(typed + 4, &delta, 4);
	memcpy(typed + 8, &type, 2);
	md(m, FDR_MD_TYPED_EVENT, typed, 10);
	put(m, &d, sizeof(d));
	drop_event(m, FDR_DROP_EVENT_MAGIC, UINT64_MAX, 0x1006);
	fn(m, FDR_FN_EXIT, 1, 9);
	{
		uint64_t n = m->n - ext - 16;

		memcpy(m->b + ext + 1, &n, 8);
	}
}

/* Which of the records are markers: "" for none, else "i:count " each. */
struct drops { char seen[256]; size_t len; int n; };

static int note_drop(const struct fdr_record *rec, void *ctx)
{
	struct drops *d = ctx;
	uint64_t records = 0;

	if (fdr_record_drop_marker(rec, &records))
		d->len += (size_t)snprintf(d->seen + d->len, sizeof(d->seen) - d->len, "%d:%llu ",
					   d->n, (unsigned long long)records);
	d->n++;
	return 0;
}

static void test_drop_markers(void)
{
	static struct img m;
	struct fdr_reader_error err;
	struct fdr_record fake = { .is_metadata = 0, .kind = FDR_MD_CUSTOM_EVENT };
	struct drops d = { .len = 0 };
	struct drops ev = { .len = 0 };
	struct fdr_trace t;
	struct fdr_log *log;
	uint64_t records = 7;

	build_drops(&m);
	check(fdr_log_open_memory(&log, m.b, m.n, &err) == 0 && fdr_log_verify(log, &err) == 0,
	      "drop markers: the log verifies (they are custom events)");
	check(fdr_log_for_each_record(log, note_drop, &d, &err) == 0 &&
	      !strcmp(d.seen, "4:5 10:18446744073709551615 "),
	      "drop markers: records 4 and 10 are markers (5, 2^64-1); bad magic, 17 and 8 "
	      "bytes, a typed event are not");
	fake.payload = m.b + 32 + 16 * 5;	/* the first marker's payload */
	fake.event_size = FDR_DROP_EVENT_SIZE;
	check(!fdr_record_drop_marker(&fake, &records) && records == 7,
	      "drop markers: a function record is none, *records untouched");
	fake.is_metadata = 1;
	check(fdr_record_drop_marker(&fake, NULL) == 1, "drop markers: records may be NULL");
	check(fdr_trace_build(&t, log, 0, &err) == 0, "drop markers: the trace builds");
	for (size_t i = 0; i < t.count; i++) {
		if (fdr_event_drop_marker(&t, fdr_trace_at(&t, i), &records))
			ev.len += (size_t)snprintf(ev.seen + ev.len, sizeof(ev.seen) - ev.len,
						   "%zu:%llu ", i, (unsigned long long)records);
	}
	check(t.count == 8 && !strcmp(ev.seen, "0:5 6:18446744073709551615 "),
	      "drop markers: expanded events 0 and 6 are markers, the same rule");
	fdr_trace_free(&t);
	fdr_log_close(log);
}

/* fdr_trace_stream against the unsorted trace: event i, its arguments
 * and payload; stop after `stop` events (0: never). */
struct stream_cmp { const struct fdr_trace *want; size_t i, stop; int bad; };

/* (fdr_trace_stream_sorted: against the sorted trace, fdr_trace_at.) */
static int same_event(const struct fdr_trace *t, const struct fdr_event *ev, void *ctx)
{
	struct stream_cmp *c = ctx;
	const struct fdr_event *w = c->i < c->want->count ? fdr_trace_at(c->want, c->i) : NULL;
	uint32_t na, nb, pa, pb;
	const uint64_t *a = fdr_event_args(t, ev, &na), *b = w ? fdr_event_args(c->want, w, &nb) : NULL;
	const uint8_t *x = fdr_event_payload(t, ev, &pa), *y = w ? fdr_event_payload(c->want, w, &pb) : NULL;

	if (!w || ev->tsc != w->tsc || ev->tid != w->tid || ev->pid != w->pid ||
	    ev->kind != w->kind || ev->func_id != w->func_id || ev->cpu != w->cpu ||
	    ev->record_type != w->record_type || na != nb || (na && memcmp(a, b, na * 8)) || pa != pb || (pa && memcmp(x, y, pa)))
		c->bad = 1;
	c->i++;
	return c->stop && c->i == c->stop ? 7 : 0;
}

static void check_stream(const struct img *m, const char *what)
{
	struct fdr_reader_error err;
	struct fdr_trace t;
	struct fdr_log *log;
	struct stream_cmp c = { &t, 0, 0, 0 };
	char name[160];
	int r;

	fdr_log_open_memory(&log, m->b, m->n, &err);
	if (fdr_trace_build(&t, log, 0, &err)) {
		check(0, what);
		fdr_log_close(log);
		return;
	}
	r = fdr_trace_stream(log, same_event, &c, &err);
	snprintf(name, sizeof(name), "%s: streamed, the unsorted trace's %zu events", what, t.count);
	check(r == 0 && !c.bad && c.i == t.count, name);
	c = (struct stream_cmp){ &t, 0, 2, 0 };
	snprintf(name, sizeof(name), "%s: a callback's non-zero return stops the stream", what);
	check(fdr_trace_stream(log, same_event, &c, &err) == 7 && c.i == 2 && !c.bad, name);
	fdr_trace_free(&t);
	fdr_log_close(log);
}

static void test_stream(void)
{
	struct img m;
	struct fdr_reader_error err;
	struct fdr_log *log;
	struct stream_cmp c = { 0 };

	build_v2(&m);
	check_stream(&m, "v2 log with an argument");
	build_drops(&m);
	check_stream(&m, "drop markers and custom events");
	build_v2(&m);
	m.b[33] -= 8;
	fdr_log_open_memory(&log, m.b, m.n, &err);
	check(fdr_trace_stream(log, same_event, &c, &err) == -1 && c.i == 0 &&
	      strstr(err.message, "expected BufferExtents"),
	      "stream of a log that does not verify: its error, no event handed out");
	fdr_log_close(log);
}

/* fdr_trace_stream_sorted against the sorted trace, event by event. */
static void check_stream_sorted(const struct img *m, const char *what)
{
	struct fdr_reader_error err;
	struct fdr_trace t;
	struct fdr_log *log;
	struct stream_cmp c = { &t, 0, 0, 0 };
	char name[200];
	int r;

	fdr_log_open_memory(&log, m->b, m->n, &err);
	if (fdr_trace_build(&t, log, FDR_TRACE_SORT_BY_TSC, &err)) {
		check(0, what);
		fdr_log_close(log);
		return;
	}
	r = fdr_trace_stream_sorted(log, same_event, &c, &err);
	snprintf(name, sizeof(name), "%s: streamed sorted, the sorted trace's %zu events",
		 what, t.count);
	check(r == 0 && !c.bad && c.i == t.count && t.count > 0, name);
	c = (struct stream_cmp){ &t, 0, 3, 0 };
	snprintf(name, sizeof(name), "%s: a callback's non-zero return stops the sorted stream",
		 what);
	check(fdr_trace_stream_sorted(log, same_event, &c, &err) == 7 && c.i == 3 && !c.bad,
	      name);
	fdr_trace_free(&t);
	fdr_log_close(log);
}

/* Two threads whose buffers interleave in time, one Enter with n arguments. */
static void build_two_threads(struct img *m, unsigned nargs)
{
	m->n = 0;
	header(m, 1, 0);
	for (unsigned b = 0; b < 6; b++) {
		md_i32(m, FDR_MD_NEW_BUFFER, 100 + (int32_t)(b % 2));
		wall(m, 1, 10 - b);	/* each thread's later buffer first in the file */
		cpu(m, (uint16_t)b, 1000 * (6 - b) + 3 * (b % 2));
		for (unsigned i = 0; i < 40; i++) {
			fn(m, i % 2 ? FDR_FN_EXIT : FDR_FN_ENTER_ARG, b * 100 + i / 2, 5);
			for (unsigned a = 0; i % 2 == 0 && a < (b == 3 && i == 8 ? nargs : i % 3); a++)
				md_u64(m, FDR_MD_CALL_ARGUMENT, b * 1000000 + i * 1000 + a);
		}
		md_u64(m, FDR_MD_TSC_WRAP, 2500);	/* a step back: another run */
		fn(m, FDR_FN_EXIT, 7, 1);
	}
}

static void test_stream_sorted(void)
{
	static struct img m;
	struct fdr_reader_error err;
	struct fdr_log *log;
	struct stream_cmp c = { 0 };

	build_v2(&m);
	check_stream_sorted(&m, "v2 log with an argument");
	build_drops(&m);
	check_stream_sorted(&m, "drop markers and custom events");
	build_two_threads(&m, 2);
	check_stream_sorted(&m, "two threads, interleaved buffers, arguments");
	build_two_threads(&m, FDR_STREAM_ARGS_MAX + 5);
	check_stream_sorted(&m, "an event with more than FDR_STREAM_ARGS_MAX arguments (whole)");
	build_runs(&m, 600, 13);
	check_stream_sorted(&m, "46 runs with equal keys");
	build_runs(&m, 5000, 2);
	check_stream_sorted(&m, "2500 runs (whole)");
	build_v2(&m);
	m.b[33] -= 8;
	fdr_log_open_memory(&log, m.b, m.n, &err);
	check(fdr_trace_stream_sorted(log, same_event, &c, &err) == -1 && c.i == 0 &&
	      strstr(err.message, "expected BufferExtents"),
	      "sorted stream of a log that does not verify: its error, no event handed out");
	fdr_log_close(log);
}

int main(void)
{
	test_drop_markers();
	test_records();
	test_trace();
	test_v5_events();
	test_v1_padding();
	test_errors();
	test_stream();
	test_stream_sorted();
	check_sorted_stable(600, 300, "TSC sort, 2 ascending runs (merge): equals a stable sort");
	check_sorted_stable(600, 13, "TSC sort, 46 runs with equal keys (merge): equals a stable sort");
	check_sorted_stable(10000, 2, "TSC sort, 5000 runs (radix): equals a stable sort");
	printf("1..%d\n", n_tests);
	return n_failed ? 1 : 0;
}
