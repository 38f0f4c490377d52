// SPDX-License-Identifier: MIT
/*
 * stream_test.c - streaming mode (FDR_INIT_STREAM) on the embedded
 * backend, with an injected TSC and the writer pinned to one CPU: a
 * writer fills every buffer, then its records are dropped and counted
 * (STATUS and the ring of its CPU), never waited for; once a simulated
 * stream flusher frees some RELEASED buffers the writer gets one, and
 * the first record there is the drop marker with the exact count; the
 * room check of a fresh buffer reserves the marker.  A flight-recorder
 * region still recycles RELEASED buffers and writes no marker.  The
 * stream flush's transitions: begun while INITIALIZED, FLUSHING through
 * FINALIZE and TRIGGER, FLUSH_DONE only once FINALIZED, abort while
 * INITIALIZED, RESET only when not FLUSHING.  And the message for an
 * fdr.ko older than streaming mode, from a device played by /dev/null
 * and this program's ioctl().
 */
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>
#include <linux/fdr_log.h>
#include "tap.h"
#include "region_util.h"

extern uint64_t (*fdr__test_tsc_hook)(void);
static uint64_t fake_tsc;
static uint64_t fake(void) { return fake_tsc; }

#define BUFSIZE	4096u
#define BPC	2u
/* What the marker takes in a fresh buffer: NewCPUId, CustomEventMarker,
 * struct fdr_drop_event. */
#define FDR_DROP_MARKER_ROOM_T	(2 * FDR_METADATA_SIZE + FDR_DROP_EVENT_SIZE)

static struct test_region tr;
static struct rec recs[1024];
static char err[256];
static int cpu;		/* the writer's, pinned */

static struct fdr_init cfg_of(uint32_t flags)
{
	struct fdr_init c = { .size = sizeof(c), .flags = flags,
			      .buffer_size = BUFSIZE, .buffers_per_cpu = BPC };

	return c;
}

static bool start_bpc(const char *tag, uint32_t flags, uint32_t bpc)
{
	struct fdr_init cfg = cfg_of(flags);

	cfg.buffers_per_cpu = bpc;

	fdr_detach();
	setenv("FDR_OPTIONS", "func_duration_threshold_us=0", 1);
	CHECK(tr_create_cfg(&tr, tag, &cfg) == 0, "create %s", tag);
	CHECK(fdr_attach(tr.target) == 0, "attach %s", tr.target);
	CHECK(tr_map(&tr) == 0, "map %s", tr.target);
	return true;
}

static bool start(const char *tag, uint32_t flags)
{
	return start_bpc(tag, flags, BPC);
}

static void stop(void)
{
	fdr_detach();
	tr_destroy(&tr);
}

static const struct fdr_cpu_ring *ring(uint32_t i)
{
	return &tr.view.rings[i];
}

static uint64_t ring_drops(uint32_t i)
{
	return __atomic_load_n(&ring(i)->records_dropped, __ATOMIC_RELAXED);
}

/* The sum of the pools' cursors: what acquisitions bump. */
static uint64_t ring_cursors(void)
{
	uint64_t n = 0;

	for (uint32_t i = 0; i < tr.c->nr_cpus; i++)
		n += __atomic_load_n(&ring(i)->next, __ATOMIC_RELAXED);
	return n;
}

static uint64_t dropped(void)
{
	struct fdr_status st;

	return fdr_ctl_status(tr.ctl, &st) == 0 ? st.records_dropped : ~0ull;
}

static uint32_t count_state(uint32_t state)
{
	uint32_t n = 0;

	for (uint32_t i = 0; i < tr.c->nr_buffers; i++)
		n += tr_desc(&tr, i)->state == state;
	return n;
}

static void enter(int32_t fid)
{
	fake_tsc += 10;
	fdr_enter(fid);
}

/* Enter records until the first one is dropped; returns how many were
 * kept (0 if none was dropped within max). */
static uint64_t fill(uint64_t max)
{
	uint32_t home = (uint32_t)cpu % tr.c->nr_cpus;
	uint64_t before = ring_drops(home);

	for (uint64_t n = 0; n < max; n++) {
		enter(1);
		if (ring_drops(home) != before)
			return n;
	}
	return 0;
}

/*
 * The stream flusher's part, done by hand: up to n RELEASED buffers
 * "written", so extents 0 then state FREE, through a writable mapping of
 * the shm object (the test's read-only map sees it).  Returns how many.
 */
static uint32_t flush_released(uint32_t n)
{
	char path[160];
	struct stat sb;
	uint32_t done = 0;
	uint8_t *p;
	int fd;

	snprintf(path, sizeof(path), "/dev/shm/fdr-%s",
		 tr.target + strlen(FDR_EMBEDDED_PREFIX));
	fd = open(path, O_RDWR | O_CLOEXEC);
	if (fd < 0 || fstat(fd, &sb) < 0)
		return 0;
	p = mmap(NULL, (size_t)sb.st_size, PROT_READ | PROT_WRITE, MAP_SHARED,
		 fd, 0);
	close(fd);
	if (p == MAP_FAILED)
		return 0;
	for (uint32_t i = 0; i < tr.view.nr_buffers && done < n; i++) {
		struct fdr_buffer_desc *d = (struct fdr_buffer_desc *)
			(p + tr.view.descs_offset) + i;

		if (__atomic_load_n(&d->state, __ATOMIC_ACQUIRE) != FDR_BUF_RELEASED)
			continue;
		__atomic_store_n(&d->extents, 0, __ATOMIC_RELEASE);
		__atomic_store_n(&d->state, FDR_BUF_FREE, __ATOMIC_RELEASE);
		done++;
	}
	munmap(p, (size_t)sb.st_size);
	return done;
}

/* The buffer the writer took last, parsed; its index in *which. */
static int newest(uint32_t *which)
{
	uint32_t idx[256];
	int n = tr_buffers_by_seq(&tr, idx, 256);

	if (n == 0)
		return 0;
	*which = idx[n - 1];
	return parse_buffer(tr_buffer(&tr, idx[n - 1]),
			    tr_desc(&tr, idx[n - 1])->extents, recs, 1024, err,
			    sizeof(err));
}

static bool is_marker(const struct rec *r, uint64_t records, uint64_t tsc)
{
	struct fdr_drop_event ev;

	if (r->type != REC_CUSTOM || r->ev_size != FDR_DROP_EVENT_SIZE ||
	    r->tsc != tsc)
		return false;
	memcpy(&ev, r->ev_data, sizeof(ev));
	return !memcmp(ev.magic, FDR_DROP_EVENT_MAGIC, 8) && ev.records == records;
}

static bool test_flags(void)
{
	struct fdr_status st;

	if (!start("flags", FDR_INIT_STREAM))
		return false;
	CHECK(fdr_ctl_status(tr.ctl, &st) == 0, "status");
	CHECK(st.flags & FDR_CTL_STREAM, "stream flag in STATUS: %#x", st.flags);
	CHECK(tr.c->flags & FDR_CTL_STREAM, "stream flag in the control page");
	stop();
	if (!start("flags-flight", 0))
		return false;
	CHECK(fdr_ctl_status(tr.ctl, &st) == 0, "status");
	CHECK(!(st.flags & FDR_CTL_STREAM), "no stream flag: %#x", st.flags);
	stop();
	return true;
}

/* Every buffer full: the next records are dropped, on our CPU's ring. */
static bool fill_stream(uint64_t *kept)
{
	uint32_t home = (uint32_t)cpu % tr.c->nr_cpus;
	uint64_t t0, t1, cursors;

	fake_tsc = 1000;
	*kept = fill(1000000);
	CHECK(*kept > 0, "a record was dropped after every buffer filled");
	CHECK(count_state(FDR_BUF_RELEASED) == tr.c->nr_buffers,
	      "all %u buffers RELEASED (full): %u", tr.c->nr_buffers,
	      count_state(FDR_BUF_RELEASED));
	cursors = ring_cursors();
	t0 = tr_now_ns();
	for (int i = 0; i < 999; i++)
		enter(2);
	t1 = tr_now_ns();
	CHECK(ring_cursors() == cursors,
	      "the drops moved no pool's cursor (no atomic on other CPUs' lines)");
	CHECK(t1 - t0 < 2000000000ull, "1000 drops took %llu ns: not waited for",
	      (unsigned long long)(t1 - t0));
	CHECK(ring_drops(home) == 1000, "ring %u counted %llu", home,
	      (unsigned long long)ring_drops(home));
	for (uint32_t i = 0; i < tr.c->nr_cpus; i++)
		CHECK(i == home || ring_drops(i) == 0, "ring %u counted %llu", i,
		      (unsigned long long)ring_drops(i));
	CHECK(dropped() == 1000, "STATUS.records_dropped %llu",
	      (unsigned long long)dropped());
	CHECK(count_state(FDR_BUF_RELEASED) == tr.c->nr_buffers,
	      "still all RELEASED: none recycled");
	return true;
}

static bool test_stream_drops_then_marker(void)
{
	uint64_t kept, before;
	struct fdr_status st;
	uint32_t which;
	int n;

	if (!start("drops", FDR_INIT_STREAM))
		return false;
	if (!fill_stream(&kept))
		return false;
	CHECK(fdr_ctl_status(tr.ctl, &st) == 0 && st.buffers_recycled == 0 &&
	      st.buffers_acquired == tr.c->nr_buffers,
	      "acquired %llu recycled %llu",
	      (unsigned long long)st.buffers_acquired,
	      (unsigned long long)st.buffers_recycled);
	CHECK(flush_released(2) == 2, "the flusher freed two buffers");
	fake_tsc = 500000;
	fdr_enter(777);
	n = newest(&which);
	CHECK(n == 5, "NewBuffer, Walltime, NewCPUId, marker, Enter: %d %s", n, err);
	CHECK(tr_desc(&tr, which)->state == FDR_BUF_HELD, "the freed buffer is held");
	CHECK(recs[0].type == REC_NEW_BUFFER && recs[1].type == REC_WALLTIME,
	      "preamble");
	CHECK(recs[2].type == REC_NEW_CPU && recs[2].tsc == 500000 &&
	      recs[2].offset == FDR_BUFFER_PREAMBLE_SIZE,
	      "NewCPUId first, as every buffer's first record has");
	CHECK(recs[3].offset == FDR_BUFFER_PREAMBLE_SIZE + FDR_METADATA_SIZE,
	      "marker at offset %llu", (unsigned long long)recs[3].offset);
	CHECK(is_marker(&recs[3], 1000, 500000),
	      "drop marker: 1000 records, absolute TSC");
	CHECK(recs[4].type == REC_FN && recs[4].fn_kind == FDR_FN_ENTER &&
	      recs[4].fid == 777 && recs[4].tsc == 500000, "then the record");
	/* Told once: the next record is just a record. */
	before = tr_desc(&tr, which)->extents;
	fake_tsc += 5;
	fdr_enter(778);
	n = newest(&which);
	CHECK(n == 6 && recs[5].type == REC_FN && recs[5].fid == 778 &&
	      tr_desc(&tr, which)->extents == before + FDR_FUNCTION_SIZE,
	      "no second marker: %d", n);
	CHECK(dropped() == 1000, "no more drops: %llu",
	      (unsigned long long)dropped());
	stop();
	return true;
}

/* A record that fits an empty buffer, but not after the marker: dropped
 * (counted, not told); the marker waits for the next record. */
static bool test_marker_room(void)
{
	uint64_t usable = BUFSIZE - tr_note_size(BUFSIZE), kept;
	static uint8_t big[BUFSIZE];
	uint64_t len = usable - FDR_BUFFER_PREAMBLE_SIZE - 2 * FDR_METADATA_SIZE;
	uint32_t which;
	int n;

	if (!start("room", FDR_INIT_STREAM))
		return false;
	if (!fill_stream(&kept))
		return false;
	CHECK(flush_released(1) == 1, "one buffer freed");
	memset(big, 0xab, sizeof(big));
	fake_tsc = 700000;
	fdr_custom_event(big, len);
	CHECK(dropped() == 1001, "the event that leaves no room: dropped, %llu",
	      (unsigned long long)dropped());
	CHECK(count_state(FDR_BUF_FREE) == 1, "and the buffer not taken");
	fdr_custom_event(big, len - FDR_DROP_MARKER_ROOM_T);
	n = newest(&which);
	CHECK(n == 5 && is_marker(&recs[3], 1000, 700000) &&
	      recs[4].type == REC_CUSTOM &&
	      recs[4].ev_size == (int32_t)(len - FDR_DROP_MARKER_ROOM_T),
	      "marker then an event filling the buffer: %d %s", n, err);
	/* the record's room held a NewCPUId the marker made unneeded */
	CHECK(tr_desc(&tr, which)->extents == usable - FDR_METADATA_SIZE,
	      "extents %llu of %llu usable",
	      (unsigned long long)tr_desc(&tr, which)->extents,
	      (unsigned long long)usable);
	stop();
	return true;
}

/*
 * A stream writer takes its pool's lowest FREE buffer: with a flusher
 * that keeps up, a run goes round two buffers however large the ring
 * (the rest is never touched); the ring order of a flight recorder would
 * go round all 8.  Each round writes half a buffer (so a buffer is
 * full at most once between two looks of the flusher), then "writes"
 * what was released.
 */
static bool test_stream_reuses_lowest(void)
{
	uint32_t used = 0, bpc = 8;

	if (!start_bpc("lowest", FDR_INIT_STREAM, bpc))
		return false;
	fake_tsc = 1000;
	for (int round = 0; round < 4 * (int)bpc; round++) {
		for (uint32_t i = 0; i < BUFSIZE / FDR_FUNCTION_SIZE / 2; i++)
			enter(3);
		flush_released(~0u);
	}
	for (uint32_t i = 0; i < tr.c->nr_buffers; i++)
		used += tr_desc(&tr, i)->owner_tid != 0;
	CHECK(dropped() == 0, "nothing dropped: %llu", (unsigned long long)dropped());
	CHECK(used == 2, "buffers ever taken: %u of %u (2: the lowest two, in turn)",
	      used, tr.c->nr_buffers);
	stop();
	return true;
}

/* The flight recorder keeps overwriting its oldest data. */
static bool test_flight_recycles(void)
{
	struct fdr_status st;
	uint32_t idx[256];
	int nb;

	if (!start("flight", 0))
		return false;
	fake_tsc = 1000;
	CHECK(fill(20000) == 0, "no record dropped");
	CHECK(fdr_ctl_status(tr.ctl, &st) == 0, "status");
	CHECK(st.records_dropped == 0, "dropped %llu",
	      (unsigned long long)st.records_dropped);
	CHECK(st.buffers_recycled > 0 && st.buffers_acquired > tr.c->nr_buffers,
	      "recycled %llu, acquired %llu",
	      (unsigned long long)st.buffers_recycled,
	      (unsigned long long)st.buffers_acquired);
	nb = tr_buffers_by_seq(&tr, idx, 256);
	for (int b = 0; b < nb; b++) {
		int n = parse_buffer(tr_buffer(&tr, idx[b]),
				     tr_desc(&tr, idx[b])->extents, recs, 1024,
				     err, sizeof(err));

		CHECK(n > 0, "buffer %u: %s", idx[b], err);
		for (int i = 0; i < n; i++)
			CHECK(recs[i].type != REC_CUSTOM, "no marker in buffer %u",
			      idx[b]);
	}
	stop();
	return true;
}

/* Drops of an older generation are not told in a new one. */
static bool test_marker_not_across_init(void)
{
	struct fdr_init cfg = cfg_of(FDR_INIT_STREAM);
	uint64_t kept;
	uint32_t which;
	int n;

	if (!start("reinit", FDR_INIT_STREAM))
		return false;
	if (!fill_stream(&kept))
		return false;
	CHECK(fdr_ctl_finalize(tr.ctl) == 0 && fdr_ctl_reset(tr.ctl) == 0 &&
	      fdr_ctl_init(tr.ctl, &cfg) == 0, "finalize, reset, init");
	CHECK(dropped() == 0, "INIT zeroed the drops: %llu",
	      (unsigned long long)dropped());
	for (uint32_t i = 0; i < tr.c->nr_cpus; i++)
		CHECK(ring_drops(i) == 0, "ring %u: %llu", i,
		      (unsigned long long)ring_drops(i));
	tr_sleep_ms(15);	/* writers look for a new INIT every 10 ms */
	fake_tsc = 900000;
	fdr_enter(5);
	n = newest(&which);
	CHECK(n == 4 && recs[2].type == REC_NEW_CPU && recs[3].type == REC_FN &&
	      recs[3].fid == 5, "no marker in the new generation: %d %s", n, err);
	stop();
	return true;
}

#define EXPECT(call, want)                                                   \
	do {                                                                 \
		int r_ = (call);                                             \
		CHECK(r_ == (want), "%s = %d, want %d", #call, r_, (want));  \
	} while (0)

static bool in_state(uint32_t state, uint32_t flush)
{
	struct fdr_status st;

	CHECK(fdr_ctl_status(tr.ctl, &st) == 0, "status");
	CHECK(st.state == state && st.flush_state == flush, "%s/%s, want %s/%s",
	      fdr_state_name(st.state), fdr_flush_state_name(st.flush_state),
	      fdr_state_name(state), fdr_flush_state_name(flush));
	return true;
}

static bool test_stream_flush_transitions(void)
{
	struct fdr_init cfg = cfg_of(FDR_INIT_STREAM);
	const char *m;

	if (!start("flush", FDR_INIT_STREAM))
		return false;
	EXPECT(fdr_ctl_flush_done(tr.ctl), -EBUSY);
	EXPECT(fdr_ctl_flush_abort(tr.ctl), -EBUSY);
	EXPECT(fdr_ctl_flush_begin(tr.ctl), 0);
	if (!in_state(FDR_STATE_INITIALIZED, FDR_FLUSH_FLUSHING))
		return false;
	EXPECT(fdr_ctl_flush_begin(tr.ctl), -EBUSY);
	EXPECT(fdr_ctl_flush_done(tr.ctl), -EBUSY);	/* not FINALIZED yet */
	m = fdr_ctl_strerror(tr.ctl, "flush done", -EBUSY);
	CHECK(strstr(m, "only after the finalize"), "message: %s", m);
	if (!in_state(FDR_STATE_INITIALIZED, FDR_FLUSH_FLUSHING))
		return false;
	EXPECT(fdr_ctl_reset(tr.ctl), -EBUSY);
	EXPECT(fdr_ctl_flush_abort(tr.ctl), 0);	/* while INITIALIZED */
	if (!in_state(FDR_STATE_INITIALIZED, FDR_FLUSH_NOT_FLUSHING))
		return false;
	EXPECT(fdr_ctl_flush_begin(tr.ctl), 0);	/* begun again */
	EXPECT(fdr_ctl_finalize(tr.ctl), 0);	/* FINALIZE while FLUSHING */
	if (!in_state(FDR_STATE_FINALIZED, FDR_FLUSH_FLUSHING))
		return false;
	EXPECT(fdr_ctl_reset(tr.ctl), -EBUSY);
	EXPECT(fdr_ctl_flush_begin(tr.ctl), -EBUSY);
	EXPECT(fdr_ctl_flush_done(tr.ctl), 0);
	if (!in_state(FDR_STATE_FINALIZED, FDR_FLUSH_FLUSHED))
		return false;
	EXPECT(fdr_ctl_flush_begin(tr.ctl), 0);	/* FLUSHED: flush again */
	EXPECT(fdr_ctl_flush_abort(tr.ctl), 0);
	EXPECT(fdr_ctl_reset(tr.ctl), 0);
	if (!in_state(FDR_STATE_UNINITIALIZED, FDR_FLUSH_NOT_FLUSHING))
		return false;
	/* TRIGGER while FLUSHING: finalized, still the stream flush's */
	EXPECT(fdr_ctl_init(tr.ctl, &cfg), 0);
	EXPECT(fdr_ctl_flush_begin(tr.ctl), 0);
	EXPECT(fdr_ctl_trigger(tr.ctl, NULL), 0);
	if (!in_state(FDR_STATE_FINALIZED, FDR_FLUSH_FLUSHING))
		return false;
	EXPECT(fdr_ctl_flush_done(tr.ctl), 0);
	EXPECT(fdr_ctl_reset(tr.ctl), 0);
	stop();
	return true;
}

/* A flight-recorder region flushes only after the finalize. */
static bool test_flight_flush_transitions(void)
{
	const char *m;

	if (!start("flightflush", 0))
		return false;
	EXPECT(fdr_ctl_flush_begin(tr.ctl), -EBUSY);
	m = fdr_ctl_strerror(tr.ctl, "flush begin", -EBUSY);
	CHECK(strstr(m, "INITIALIZED") && strstr(m, "--mode stream"),
	      "message: %s", m);
	if (!in_state(FDR_STATE_INITIALIZED, FDR_FLUSH_NOT_FLUSHING))
		return false;
	EXPECT(fdr_ctl_flush_abort(tr.ctl), -EBUSY);
	EXPECT(fdr_ctl_finalize(tr.ctl), 0);
	EXPECT(fdr_ctl_flush_begin(tr.ctl), 0);
	EXPECT(fdr_ctl_flush_done(tr.ctl), 0);
	EXPECT(fdr_ctl_reset(tr.ctl), 0);
	stop();
	return true;
}

/*
 * A device that predates streaming mode: while old_device is set, this
 * program's ioctl() (libfdr's calls bind to it: the library is linked in
 * statically) answers STATUS as an UNINITIALIZED fdr.ko and refuses
 * every INIT with EINVAL, as one whose FDR_INIT_FLAGS_ALL lacks
 * FDR_INIT_STREAM does.  Anything else goes to the kernel.
 */
static bool old_device;

int ioctl(int fd, unsigned long req, ...)
{
	va_list ap;
	void *arg;

	va_start(ap, req);
	arg = va_arg(ap, void *);
	va_end(ap);
	if (old_device && req == FDR_IOC_STATUS) {
		struct fdr_status *st = arg;

		memset(st, 0, sizeof(*st));
		st->size = sizeof(*st);
		st->default_buffer_size = BUFSIZE;
		st->default_buffers_per_cpu = BPC;
		return 0;
	}
	if (old_device && req == FDR_IOC_INIT) {
		errno = EINVAL;
		return -1;
	}
	return (int)syscall(SYS_ioctl, fd, req, arg);
}

static bool test_old_module_message(void)
{
	struct fdr_init stream = cfg_of(FDR_INIT_STREAM), flight = cfg_of(0);
	struct fdr_ctl *ctl;
	const char *m;
	int ret;

	old_device = true;
	ret = fdr_ctl_open(&ctl, "/dev/null");
	CHECK(ret == 0, "open the played device: %s",
	      fdr_ctl_strerror(ctl, "open", ret));
	ret = fdr_ctl_init(ctl, &stream);
	m = fdr_ctl_strerror(ctl, "init", ret);
	CHECK(ret == -EINVAL && strstr(m, "predates streaming mode") &&
	      strstr(m, "--mode flight"), "%d: %s", ret, m);
	ret = fdr_ctl_init(ctl, &flight);
	m = fdr_ctl_strerror(ctl, "init", ret);
	CHECK(ret == -EINVAL && strstr(m, "bad sizes") &&
	      !strstr(m, "streaming"), "without the flag: %d: %s", ret, m);
	fdr_ctl_close(ctl);
	old_device = false;
	return true;
}

/* The first CPU we may run on; the writer stays there. */
static int pin_first_cpu(void)
{
	cpu_set_t s;

	if (sched_getaffinity(0, sizeof(s), &s) < 0)
		return 0;
	for (int i = 0; i < CPU_SETSIZE; i++)
		if (CPU_ISSET(i, &s)) {
			tr_pin_cpu(i);
			return i;
		}
	return 0;
}

int main(void)
{
	cpu = pin_first_cpu();
	fdr__test_tsc_hook = fake;
	tap_ok(test_flags(), "FDR_INIT_STREAM sets FDR_CTL_STREAM (STATUS, control page)");
	tap_ok(test_stream_drops_then_marker(),
	       "stream: full, then dropped and counted on the writer's CPU; freed buffer starts with the drop marker");
	tap_ok(test_marker_room(), "stream: a fresh buffer's room check reserves the marker");
	tap_ok(test_marker_not_across_init(),
	       "stream: INIT zeroes the drop counters; old drops are not told in a new generation");
	tap_ok(test_stream_reuses_lowest(),
	       "stream: a writer takes the lowest free buffer: a run that keeps up touches 2 of 8");
	tap_ok(test_flight_recycles(), "flight recorder: RELEASED buffers recycled, no drop, no marker");
	tap_ok(test_stream_flush_transitions(),
	       "stream flush: begun INITIALIZED, FLUSHING through finalize and trigger, DONE only FINALIZED");
	tap_ok(test_flight_flush_transitions(), "flight recorder: no flush while INITIALIZED");
	tap_ok(test_old_module_message(),
	       "a device refusing FDR_INIT_STREAM (EINVAL): the message names an fdr.ko older than streaming mode");
	return tap_done();
}
