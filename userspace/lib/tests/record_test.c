// SPDX-License-Identifier: MIT
/*
 * record_test.c - the record path, byte by byte, on an embedded region
 * with an injected TSC: preamble, deltas, TSCWrap, arguments, custom
 * events, the duration threshold (plain and tail-call chains), buffer
 * rotation, finalize and re-init.
 */
#include <errno.h>
#include <pthread.h>
#include <sys/prctl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>
#include <linux/fdr_log.h>
#include "tap.h"
#include "region_util.h"

extern uint64_t (*fdr__test_tsc_hook)(void);
extern void (*fdr__test_guarded_hook)(void);
static uint64_t fake_tsc;
static uint64_t fake(void) { return fake_tsc; }

static struct test_region tr;
static struct rec recs[4096];
static char err[256];

static bool start(const char *tag, uint64_t bufsize, uint32_t bpc,
		  const char *opts)
{
	fdr_detach();
	if (opts)
		setenv("FDR_OPTIONS", opts, 1);
	else
		unsetenv("FDR_OPTIONS");
	CHECK(tr_create(&tr, tag, bufsize, bpc) == 0, "create %s", tag);
	CHECK(fdr_attach(tr.target) == 0, "attach %s", tr.target);
	CHECK(tr_map(&tr) == 0, "map %s", tr.target);
	return true;
}

static void stop(void)
{
	fdr_detach();
	tr_destroy(&tr);
}

/* The newest buffer of this test, parsed; returns the record count. */
static int newest(uint64_t *extents)
{
	uint32_t idx[256];
	int n = tr_buffers_by_seq(&tr, idx, 256);

	if (n == 0)
		return 0;
	*extents = tr_desc(&tr, idx[n - 1])->extents;
	return parse_buffer(tr_buffer(&tr, idx[n - 1]), *extents, recs, 4096,
			    err, sizeof(err));
}

static uint64_t threshold_ticks(void)
{
	return 5 * tr.c->tsc_hz / 1000000;
}

static bool is_fn(const struct rec *r, uint32_t kind, uint32_t fid,
		  uint64_t tsc)
{
	return r->type == REC_FN && r->fn_kind == kind && r->fid == fid &&
	       r->tsc == tsc;
}

static bool test_one_pair(void)
{
	static const uint8_t enter[8] = { 0x10, 0, 0, 0, 0, 0, 0, 0 };
	static const uint8_t exit_[8] = { 0x12, 0, 0, 0, 100, 0, 0, 0 };
	struct timespec ts;
	uint64_t ext, now_us, wall_us;
	const uint8_t *b;
	uint32_t idx[4];
	int32_t tid = (int32_t)syscall(SYS_gettid);
	int n;

	if (!start("pair", 65536, 2, "func_duration_threshold_us=0"))
		return false;
	fake_tsc = 0x1000;
	fdr_enter(1);
	fake_tsc = 0x1064;
	fdr_exit(1);
	clock_gettime(CLOCK_MONOTONIC, &ts);
	CHECK(tr_buffers_by_seq(&tr, idx, 4) == 1, "one buffer used");
	b = tr_buffer(&tr, idx[0]);
	CHECK(tr_desc(&tr, idx[0])->extents == 64, "extents %llu",
	      (unsigned long long)tr_desc(&tr, idx[0])->extents);
	CHECK(tr_desc(&tr, idx[0])->state == FDR_BUF_HELD, "held");
	CHECK(tr_desc(&tr, idx[0])->owner_tid == tid, "owner tid");
	CHECK(tr_desc(&tr, idx[0])->owner_pid == getpid(), "owner pid");
	/* NewBuffer: 0x01, tid, zero padding */
	CHECK(b[0] == 0x01 && !memcmp(b + 1, &tid, 4), "NewBuffer tid");
	for (int i = 5; i < 16; i++)
		CHECK(b[i] == 0, "NewBuffer padding byte %d", i);
	/* Walltime: 0x09, sec, usec: CLOCK_MONOTONIC, not in the future */
	CHECK(b[16] == 0x09, "Walltime kind");
	n = newest(&ext);
	CHECK(n == 5, "5 records, got %d: %s", n, err);
	wall_us = recs[1].sec * 1000000 + recs[1].usec;
	now_us = (uint64_t)ts.tv_sec * 1000000 + (uint64_t)ts.tv_nsec / 1000;
	CHECK(recs[1].usec < 1000000 && wall_us <= now_us &&
	      now_us - wall_us < 10000000, "walltime %llu vs now %llu",
	      (unsigned long long)wall_us, (unsigned long long)now_us);
	/* NewCPUId: 0x05, cpu 0 (pinned), tsc 0x1000 */
	CHECK(b[32] == 0x05 && recs[2].cpu == 0 && recs[2].tsc == 0x1000,
	      "NewCPUId cpu %u tsc %llx", recs[2].cpu,
	      (unsigned long long)recs[2].tsc);
	CHECK(!memcmp(b + 48, enter, 8), "Enter f1 delta 0 bytes");
	CHECK(!memcmp(b + 56, exit_, 8), "Exit f1 delta 100 bytes");
	stop();
	return true;
}

static bool test_100_pairs(void)
{
	uint64_t ext, t0 = 5000;
	int n;

	if (!start("hundred", 65536, 2, "func_duration_threshold_us=0"))
		return false;
	for (int i = 0; i < 100; i++) {
		fake_tsc = t0 + (uint64_t)i * 1000;
		fdr_enter(i + 1);
		fake_tsc += 10 + (uint64_t)i;
		fdr_exit(i + 1);
	}
	n = newest(&ext);
	CHECK(n == 203, "203 records, got %d: %s", n, err);
	CHECK(ext == 32 + 16 + 200 * 8, "extents %llu", (unsigned long long)ext);
	for (int i = 0; i < 100; i++) {
		uint64_t te = t0 + (uint64_t)i * 1000;

		CHECK(is_fn(&recs[3 + 2 * i], FDR_FN_ENTER, (uint32_t)i + 1, te),
		      "enter %d", i);
		CHECK(is_fn(&recs[4 + 2 * i], FDR_FN_EXIT, (uint32_t)i + 1,
			    te + 10 + (uint64_t)i), "exit %d", i);
	}
	stop();
	return true;
}

static bool test_tsc_wrap(void)
{
	uint64_t ext, big = 0x1000 + (1ull << 31) + 5;
	int n;

	if (!start("wrap", 65536, 2, "func_duration_threshold_us=0"))
		return false;
	fake_tsc = 0x1000;
	fdr_enter(1);
	fake_tsc = 0x1000 + 0x7fffffffull;	/* delta = INT32_MAX: still fits */
	fdr_enter(2);
	fake_tsc = big + 0x7fffffff;	/* too far: TSCWrap */
	fdr_exit(2);
	fake_tsc = 0x500;		/* backwards: TSCWrap */
	fdr_exit(1);
	n = newest(&ext);
	CHECK(n == 9, "9 records, got %d: %s", n, err);
	CHECK(is_fn(&recs[3], FDR_FN_ENTER, 1, 0x1000), "enter 1");
	CHECK(is_fn(&recs[4], FDR_FN_ENTER, 2, 0x1000 + 0x7fffffffull) &&
	      recs[4].delta == 0x7fffffff, "enter 2 at max delta");
	CHECK(recs[5].type == REC_TSC_WRAP && recs[5].tsc == big + 0x7fffffff,
	      "wrap forward");
	CHECK(is_fn(&recs[6], FDR_FN_EXIT, 2, big + 0x7fffffff) &&
	      recs[6].delta == 0, "exit 2 delta 0");
	CHECK(recs[7].type == REC_TSC_WRAP && recs[7].tsc == 0x500,
	      "wrap backwards");
	CHECK(is_fn(&recs[8], FDR_FN_EXIT, 1, 0x500), "exit 1");
	stop();
	return true;
}

static bool test_args(void)
{
	uint64_t ext;
	int n;

	if (!start("args", 65536, 2, NULL))	/* default threshold */
		return false;
	fake_tsc = 1000;
	fdr_enter_arg(7, 0xdeadbeefcafef00dull);
	fake_tsc = 1001;	/* shorter than 5 µs: still kept */
	fdr_exit(7);
	n = newest(&ext);
	CHECK(n == 6, "6 records, got %d: %s", n, err);
	CHECK(is_fn(&recs[3], FDR_FN_ENTER_ARG, 7, 1000), "EnterArg");
	CHECK(recs[4].type == REC_CALL_ARG &&
	      recs[4].arg == 0xdeadbeefcafef00dull, "CallArgument");
	CHECK(is_fn(&recs[5], FDR_FN_EXIT, 7, 1001), "Exit");
	CHECK(ext == 32 + 16 + 8 + 16 + 8, "extents %llu",
	      (unsigned long long)ext);
	stop();
	return true;
}

static bool test_custom_events(void)
{
	struct fdr_status st;
	uint64_t ext, before;
	static char huge[70000];
	/* all of a buffer but its preamble, NewCPUId, marker and owner note */
	size_t room = 65536 - 32 - 16 - 16 - tr_note_size(65536);
	int n;

	if (!start("custom", 65536, 2, "func_duration_threshold_us=0"))
		return false;
	fake_tsc = 2000;
	fdr_enter(3);
	fake_tsc = 2500;
	fdr_custom_event("hello", 5);
	fake_tsc = 2600;
	fdr_exit(3);
	n = newest(&ext);
	CHECK(n == 6, "6 records, got %d: %s", n, err);
	CHECK(recs[4].type == REC_CUSTOM && recs[4].ev_size == 5 &&
	      recs[4].tsc == 2500 && !memcmp(recs[4].ev_data, "hello", 5),
	      "custom event");
	CHECK(is_fn(&recs[5], FDR_FN_EXIT, 3, 2600), "exit after the event: %llu",
	      (unsigned long long)recs[5].tsc);
	CHECK(ext == 32 + 16 + 8 + 16 + 5 + 8, "extents %llu",
	      (unsigned long long)ext);
	/* Larger than a buffer can ever hold: dropped and counted, not torn. */
	before = ext;
	fdr_custom_event(huge, sizeof(huge));
	fdr_custom_event(huge, room + 1);
	newest(&ext);
	CHECK(ext == before, "oversize event wrote something");
	CHECK(fdr_ctl_status(tr.ctl, &st) == 0 && st.records_dropped == 2,
	      "records_dropped %llu", (unsigned long long)st.records_dropped);
	/* The largest that fits takes a fresh buffer of its own. */
	fdr_custom_event(huge, room);
	n = newest(&ext);
	CHECK(n == 4 && ext == 65536 - tr_note_size(65536) &&
	      recs[3].type == REC_CUSTOM,
	      "largest event alone in a buffer: n %d ext %llu", n,
	      (unsigned long long)ext);
	stop();
	return true;
}

static bool test_threshold_plain(void)
{
	uint64_t ext, th;
	int n;

	if (!start("thplain", 65536, 2, NULL))
		return false;
	th = threshold_ticks();
	CHECK(th > 100, "threshold %llu ticks", (unsigned long long)th);
	fake_tsc = 10000;
	fdr_enter(1);		/* A: long */
	fake_tsc += 10;
	fdr_enter(2);		/* B: short leaf */
	fake_tsc += 10;
	fdr_enter(3);		/* C: short leaf inside B */
	fake_tsc += 10;
	fdr_exit(3);
	fake_tsc += 10;
	fdr_exit(2);
	n = newest(&ext);
	CHECK(n == 4 && ext == 32 + 16 + 8, "short calls erased: n %d ext %llu",
	      n, (unsigned long long)ext);
	fake_tsc = 10000 + th + 1;
	fdr_enter(4);		/* a record after the rewind: exact delta */
	fake_tsc += th;		/* exactly the threshold: kept */
	fdr_exit(4);
	fake_tsc += 5;
	fdr_exit(1);
	n = newest(&ext);
	CHECK(n == 7, "7 records, got %d: %s", n, err);
	CHECK(is_fn(&recs[3], FDR_FN_ENTER, 1, 10000), "enter A");
	CHECK(is_fn(&recs[4], FDR_FN_ENTER, 4, 10000 + th + 1), "enter D %llu",
	      (unsigned long long)recs[4].tsc);
	CHECK(is_fn(&recs[5], FDR_FN_EXIT, 4, 10000 + 2 * th + 1), "exit D");
	CHECK(is_fn(&recs[6], FDR_FN_EXIT, 1, 10000 + 2 * th + 6), "exit A");
	stop();
	return true;
}

static bool test_threshold_tail_chain(void)
{
	uint64_t ext, th, t0 = 50000;
	int n;

	if (!start("thtail", 65536, 2, NULL))
		return false;
	th = threshold_ticks();
	fake_tsc = t0 - 100;
	fdr_enter_arg(9, 1);	/* not undoable: a fixed floor */
	/* A tail-calls B tail-calls C; all short: everything erased. */
	fake_tsc = t0;
	fdr_enter(1);
	fake_tsc += 3;
	fdr_tail_exit(1);
	fake_tsc += 3;
	fdr_enter(2);
	fake_tsc += 3;
	fdr_tail_exit(2);
	fake_tsc += 3;
	fdr_enter(3);
	fake_tsc += 3;
	fdr_exit(3);
	n = newest(&ext);
	CHECK(n == 5 && ext == 32 + 16 + 8 + 16, "chain erased: n %d ext %llu",
	      n, (unsigned long long)ext);
	/* A tail-calls B: the pair A is long and stays; the leaf B is short
	 * and goes; the walk over the chain stops at the long pair. */
	fake_tsc = t0 + 1000;
	fdr_enter(4);
	fake_tsc += th;
	fdr_tail_exit(4);
	fake_tsc += 10;
	fdr_enter(5);
	fake_tsc += 10;
	fdr_exit(5);
	n = newest(&ext);
	CHECK(n == 7, "pair kept, leaf erased: n %d: %s", n, err);
	CHECK(is_fn(&recs[5], FDR_FN_ENTER, 4, t0 + 1000) &&
	      is_fn(&recs[6], FDR_FN_TAIL_EXIT, 4, t0 + 1000 + th), "pair A");
	/* The next delta is relative to the TailExit that now ends the
	 * buffer. */
	fake_tsc = t0 + 5 * th;
	fdr_enter(6);
	n = newest(&ext);
	CHECK(n == 8 && is_fn(&recs[7], FDR_FN_ENTER, 6, t0 + 5 * th),
	      "delta after rewind: %llu", (unsigned long long)recs[7].tsc);
	stop();
	return true;
}

static bool test_rotation(void)
{
	uint32_t idx[16];
	uint64_t ext;
	uint64_t usable = 4096 - tr_note_size(4096);
	int per = (int)(usable - 32 - 16) / 16, nb;
	struct rec *r;

	if (!start("rotate", 4096, 4, "func_duration_threshold_us=0"))
		return false;
	fake_tsc = 100;
	for (int i = 0; i < per + 10; i++) {
		fake_tsc += 7;
		fdr_enter(i + 1);
		fake_tsc += 7;
		fdr_exit(i + 1);
	}
	nb = tr_buffers_by_seq(&tr, idx, 16);
	CHECK(nb == 2, "two buffers, got %d", nb);
	ext = tr_desc(&tr, idx[0])->extents;
	CHECK(tr_desc(&tr, idx[0])->state == FDR_BUF_RELEASED, "first released");
	CHECK(parse_buffer(tr_buffer(&tr, idx[0]), ext, recs, 4096, err,
			   sizeof(err)) > 0, "first parses: %s", err);
	CHECK(ext > usable - 24 && ext <= usable, "first nearly full: %llu",
	      (unsigned long long)ext);
	uint64_t wall0 = recs[1].sec * 1000000 + recs[1].usec;
	int n = parse_buffer(tr_buffer(&tr, idx[1]), tr_desc(&tr, idx[1])->extents,
			     recs, 4096, err, sizeof(err));
	CHECK(n > 3, "second parses: %s", err);
	r = recs;
	CHECK(r[0].tid == (int32_t)syscall(SYS_gettid), "same tid");
	CHECK(r[1].sec * 1000000 + r[1].usec > wall0, "walltime increases");
	CHECK(r[2].type == REC_NEW_CPU && r[3].type == REC_FN &&
	      r[3].delta == 0, "fresh NewCPUId");
	stop();
	return true;
}

/* A named thread records once: its buffer's end says who wrote it. */
static void *named_thread(void *arg)
{
	(void)arg;
	prctl(PR_SET_NAME, "note-writer");
	fdr_enter(5);
	fdr_exit(5);
	fdr_thread_release();
	return (void *)(long)syscall(SYS_gettid);
}

static bool test_owner_note(void)
{
	struct fdr_owner_note n;
	struct fdr_owner_note_tail tail;
	const struct fdr_buffer_desc *d;
	uint64_t size = tr_note_size(65536);
	char exe[4096];
	ssize_t exe_len = readlink("/proc/self/exe", exe, sizeof(exe));
	const uint8_t *b;
	uint32_t idx[4];
	pthread_t th;
	void *tid;

	if (!start("note", 65536, 2, "func_duration_threshold_us=0"))
		return false;
	CHECK(pthread_create(&th, NULL, named_thread, NULL) == 0 &&
	      pthread_join(th, &tid) == 0, "thread");
	CHECK(tr_buffers_by_seq(&tr, idx, 4) == 1, "one buffer");
	d = tr_desc(&tr, idx[0]);
	b = tr_buffer(&tr, idx[0]);
	memcpy(&tail, b + 65536 - sizeof(tail), sizeof(tail));
	CHECK(tail.magic == FDR_OWNER_NOTE_MAGIC && tail.size == size,
	      "tail: magic %#x size %u, want %llu", tail.magic, tail.size,
	      (unsigned long long)size);
	memcpy(&n, b + 65536 - size, sizeof(n));
	CHECK(n.seq == d->seq && n.generation == d->generation,
	      "seq %llu/%llu generation %u/%u", (unsigned long long)n.seq,
	      (unsigned long long)d->seq, n.generation, d->generation);
	CHECK(n.pid == getpid() && n.tid == (int32_t)(long)tid &&
	      n.tid == d->owner_tid, "pid %d tid %d", n.pid, n.tid);
	CHECK(!memcmp(n.comm, "note-writer\0\0\0\0\0", 16), "comm %.16s", n.comm);
	CHECK(exe_len > 0 && n.exe_len == exe_len && n.flags == 0 &&
	      !memcmp(b + 65536 - size + sizeof(n), exe, (size_t)exe_len),
	      "exe %.*s", (int)n.exe_len, b + 65536 - size + sizeof(n));
	CHECK(d->extents <= 65536 - size, "records stop before the note");
	stop();
	return true;
}

static bool test_finalize_stops(void)
{
	struct fdr_init cfg = { .size = sizeof(cfg), .buffer_size = 65536,
				.buffers_per_cpu = 2 };
	uint32_t idx[8];
	uint64_t ext;
	struct timespec nap = { 0, 150 * 1000 * 1000 };

	if (!start("final", 65536, 2, "func_duration_threshold_us=0"))
		return false;
	fake_tsc = 100;
	fdr_enter(1);
	CHECK(fdr_ctl_finalize(tr.ctl) == 0, "finalize");
	newest(&ext);
	fake_tsc = 200;
	fdr_exit(1);
	CHECK(tr_buffers_by_seq(&tr, idx, 8) == 1, "one buffer");
	CHECK(tr_desc(&tr, idx[0])->extents == ext, "nothing after finalize");
	CHECK(tr_desc(&tr, idx[0])->state == FDR_BUF_RELEASED,
	      "released at the next record");
	/* Reset + INIT (same geometry: same object, next generation). */
	CHECK(fdr_ctl_reset(tr.ctl) == 0 && fdr_ctl_init(tr.ctl, &cfg) == 0,
	      "reset + init");
	CHECK(tr.c->generation == 2, "generation %u", tr.c->generation);
	nanosleep(&nap, NULL);	/* writers look again every 10 ms */
	fake_tsc = 300;
	fdr_enter(2);
	fake_tsc = 400;
	fdr_enter(2);
	CHECK(tr_buffers_by_seq(&tr, idx, 8) == 1, "one buffer in gen 2");
	CHECK(tr_desc(&tr, idx[0])->generation == 2 &&
	      tr_desc(&tr, idx[0])->extents == 32 + 16 + 16, "recording again: %llu",
	      (unsigned long long)tr_desc(&tr, idx[0])->extents);
	stop();
	return true;
}

static bool test_reinit_new_geometry(void)
{
	struct fdr_init cfg = { .size = sizeof(cfg), .buffer_size = 8192,
				.buffers_per_cpu = 3 };
	struct timespec nap = { 0, 150 * 1000 * 1000 };
	uint32_t idx[8];

	if (!start("regeo", 65536, 2, "func_duration_threshold_us=0"))
		return false;
	fake_tsc = 100;
	fdr_enter(1);
	CHECK(fdr_ctl_finalize(tr.ctl) == 0 && fdr_ctl_reset(tr.ctl) == 0 &&
	      fdr_ctl_init(tr.ctl, &cfg) == 0, "finalize, reset, init 8K x 3");
	CHECK(tr_map(&tr) == 0 && tr.c->buffer_size == 8192 &&
	      tr.c->generation == 2, "new object, generation 2");
	nanosleep(&nap, NULL);
	fake_tsc = 300;
	fdr_enter(2);
	fdr_enter(2);
	CHECK(tr_buffers_by_seq(&tr, idx, 8) == 1 &&
	      tr_desc(&tr, idx[0])->extents == 32 + 16 + 16,
	      "writer followed the name to the new object");
	stop();
	return true;
}

/*
 * A long-lived process through many re-inits, each with a new geometry
 * (so a new object, mapped anew): it records in every generation, past
 * the 64 slots of libfdr's region ring, and its writable mappings do not
 * grow: the superseded regions are retired.
 */
static bool test_many_reinits(void)
{
	bool ok;

	if (!start("many", 8192, 1, "func_duration_threshold_us=0"))
		return false;
	fdr__test_tsc_hook = NULL;	/* real TSC: increasing across the cycles */
	fdr_enter(1);			/* the writer maps the region */
	ok = tr_follow_reinits(&tr, 70);
	fdr__test_tsc_hook = fake;
	stop();
	return ok;
}

/* Runs just inside a record's re-entry guard, as a signal handler would. */
static void nested_records(void)
{
	fdr_enter(99);
	fdr_custom_event("nested", 6);
}

static bool test_reentry_dropped(void)
{
	struct fdr_status st;
	uint64_t ext;
	int n;

	if (!start("reentry", 65536, 2, "func_duration_threshold_us=0"))
		return false;
	fake_tsc = 1000;
	fdr_enter(1);
	fdr__test_guarded_hook = nested_records;
	fake_tsc = 1100;
	fdr_exit(1);
	fdr__test_guarded_hook = NULL;
	n = newest(&ext);
	CHECK(n == 5 && is_fn(&recs[3], FDR_FN_ENTER, 1, 1000) &&
	      is_fn(&recs[4], FDR_FN_EXIT, 1, 1100),
	      "nested records dropped, outer intact: n %d", n);
	CHECK(fdr_ctl_status(tr.ctl, &st) == 0 && st.records_dropped == 2,
	      "both nested records counted as dropped: %llu",
	      (unsigned long long)st.records_dropped);
	stop();
	return true;
}

/*
 * The TSC is read before the guard: a signal handler there records in
 * full, later in time than the TSC its interrupted record already read.
 * That record must not go back in time: it takes the TSC again.
 */
static bool handler_ran;

static uint64_t handler_after_rdtsc(void)
{
	uint64_t tsc = fake_tsc;

	if (!handler_ran) {
		handler_ran = true;
		fake_tsc += 50;
		fdr_enter(99);
		fdr_exit(99);
	}
	return tsc;
}

static bool test_signal_before_guard(void)
{
	uint64_t ext;
	int n;

	if (!start("preguard", 65536, 2, "func_duration_threshold_us=0"))
		return false;
	fake_tsc = 1000;
	fdr_enter(1);
	handler_ran = false;
	fake_tsc = 1100;
	fdr__test_tsc_hook = handler_after_rdtsc;
	fdr_exit(1);
	fdr__test_tsc_hook = fake;
	n = newest(&ext);
	CHECK(handler_ran && n == 7 && ext == 32 + 16 + 4 * 8 &&
	      is_fn(&recs[3], FDR_FN_ENTER, 1, 1000) &&
	      is_fn(&recs[4], FDR_FN_ENTER, 99, 1150) &&
	      is_fn(&recs[5], FDR_FN_EXIT, 99, 1150) &&
	      is_fn(&recs[6], FDR_FN_EXIT, 1, 1150) && recs[6].delta == 0,
	      "handler's records kept, outer exit after them: n %d", n);
	stop();
	return true;
}

static bool test_attach_before_init(void)
{
	struct fdr_init cfg = { .size = sizeof(cfg), .buffer_size = 65536,
				.buffers_per_cpu = 2 };
	struct timespec nap = { 0, 150 * 1000 * 1000 };
	uint64_t ext;

	fdr_detach();
	setenv("FDR_OPTIONS", "func_duration_threshold_us=0", 1);
	snprintf(tr.target, sizeof(tr.target), "embedded:t-early-%d", getpid());
	CHECK(fdr_ctl_open(&tr.ctl, tr.target) == 0, "open");
	CHECK(fdr_attach(tr.target) == -ENODATA, "attach: not initialized yet");
	fdr_enter(1);	/* no-op */
	CHECK(fdr_ctl_init(tr.ctl, &cfg) == 0 && tr_map(&tr) == 0, "init");
	nanosleep(&nap, NULL);
	fake_tsc = 500;
	fdr_enter(2);
	fake_tsc = 600;
	fdr_exit(2);
	CHECK(newest(&ext) == 5 && recs[3].fid == 2, "recording after init");
	stop();
	return true;
}

/* Records of one short call (10 ticks) under the given FDR_OPTIONS. */
static int short_call_records(const char *opts)
{
	uint64_t ext;
	int n;

	if (!start("opts", 65536, 2, opts))
		return -1;
	fake_tsc = 7000;
	fdr_enter(1);
	fake_tsc += 10;
	fdr_exit(1);
	n = newest(&ext);
	stop();
	return n;
}

static bool test_options(void)
{
	int n;

	n = short_call_records("bogus=1:func_duration_threshold_us=0");
	CHECK(n == 5, "threshold 0 after an unknown name: %d records", n);
	n = short_call_records("func_duration_threshold_us=0 other=2");
	CHECK(n == 5, "space separated: %d records", n);
	n = short_call_records("func_duration_threshold_us=abc");
	CHECK(n == 3, "a bad value keeps the default 5 us: %d records", n);
	n = short_call_records(NULL);
	CHECK(n == 3, "default 5 us rewinds a 10-tick call: %d records", n);
	return true;
}

static bool test_unavailable(void)
{
	fdr_detach();
	fdr_enter(1);	/* not attached: no-op, no crash */
	fdr_exit(1);
	fdr_custom_event("x", 1);
	CHECK(fdr_attach("/nonexistent/fdr") == -ENOENT,
	      "attach to a missing device fails");
	fdr_enter(1);
	fdr_exit(1);
	fdr_thread_release();
	return true;
}

int main(void)
{
	tr_pin_cpu(0);
	fdr__test_tsc_hook = fake;
	tap_plan(17);
	tap_ok(test_one_pair(), "one enter/exit pair: preamble and record bytes");
	tap_ok(test_100_pairs(), "100 pairs: deltas and extents");
	tap_ok(test_tsc_wrap(), "TSCWrap on a large delta and on a backwards TSC");
	tap_ok(test_args(), "EnterArg + CallArgument, never rewound");
	tap_ok(test_custom_events(), "custom events: v2 encoding, oversize dropped");
	tap_ok(test_threshold_plain(), "threshold rewinds short calls, exact deltas after");
	tap_ok(test_threshold_tail_chain(), "threshold rewinds tail-exit chains");
	tap_ok(test_rotation(), "full buffer: released, next one has a new preamble");
	tap_ok(test_owner_note(), "owner note: pid, tid, comm, exe at the buffer's end");
	tap_ok(test_finalize_stops(), "finalize stops writers; re-init resumes");
	tap_ok(test_reinit_new_geometry(), "re-init with a new geometry: writers follow");
	tap_ok(test_many_reinits(), "70 re-inits: writers follow each, old regions retired");
	tap_ok(test_reentry_dropped(), "a record inside a record (signal) is dropped");
	tap_ok(test_signal_before_guard(), "a signal between rdtsc and the guard: time stays ordered");
	tap_ok(test_attach_before_init(), "attach before init: recording starts at init");
	tap_ok(test_options(), "FDR_OPTIONS: separators, unknown names, bad values");
	tap_ok(test_unavailable(), "no target: calls are no-ops");
	return tap_done();
}
