// SPDX-License-Identifier: MIT
/*
 * device_stream.c - streaming mode through /dev/fdr, in the VM: INIT
 * with FDR_INIT_STREAM sets FDR_CTL_STREAM; a writer fills every buffer,
 * then its records are dropped and counted (STATUS, the ring of its
 * CPU), never waited for; once the test, as the stream flusher, frees
 * RELEASED buffers (extents 0, state FREE, through its own writable
 * mapping) the writer's next buffer starts with the drop marker with the
 * exact count.  A flight-recorder region still recycles.  The stream
 * flush's transitions as fdr.ko makes them: begun while INITIALIZED,
 * owned by the file that began it (ended by its release too), FLUSHING
 * through FINALIZE, TRIGGER and a crash finalize, FLUSH_DONE only once
 * FINALIZED.  INIT zeroes the drop counters.  SKIPs without /dev/fdr, and when the module refuses
 * FDR_INIT_STREAM (an fdr.ko older than streaming mode).
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>
#include <linux/fdr_log.h>
#include "tap.h"
#include "region_util.h"

#define NTESTS	6
#define BUFSIZE	8192u
#define BPC	2u

static struct test_region tr;
static struct rec recs[2048];
static char err[256];

static struct fdr_init cfg_of(uint32_t flags)
{
	struct fdr_init c = { .size = sizeof(c), .flags = flags,
			      .buffer_size = BUFSIZE, .buffers_per_cpu = BPC };

	return c;
}

static bool start(uint32_t flags)
{
	struct fdr_init cfg = cfg_of(flags);

	fdr_detach();
	setenv("FDR_OPTIONS", "func_duration_threshold_us=0", 1);
	CHECK(tr_open_device_cfg(&tr, &cfg) == 0, "init /dev/fdr, flags %#x", flags);
	CHECK(fdr_attach(tr.target) == 0, "attach");
	CHECK(tr_map(&tr) == 0, "map");
	return true;
}

static void stop(void)
{
	fdr_detach();
	tr_destroy(&tr);
}

static uint64_t ring_drops(uint32_t i)
{
	const struct fdr_cpu_ring *r = &tr.view.rings[i];

	return __atomic_load_n(&r->records_dropped, __ATOMIC_RELAXED);
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

/* Enters until the first is dropped (we run on CPU 0: ring 0); returns
 * how many were kept, 0 if none was dropped within max. */
static uint64_t fill(uint64_t max)
{
	uint64_t before = ring_drops(0);

	for (uint64_t n = 0; n < max; n++) {
		fdr_enter(1);
		if (ring_drops(0) != before)
			return n;
	}
	return 0;
}

/*
 * The stream flusher's part, by hand: up to n RELEASED buffers
 * "written", then extents 0 and state FREE, through a writable mapping
 * of the device of our own (the test's map is read-only).
 */
static uint32_t flush_released(uint32_t n)
{
	struct fdr_status st;
	uint32_t done = 0;
	uint8_t *p;
	int fd;

	if (fdr_ctl_status(tr.ctl, &st) < 0)
		return 0;
	fd = open(FDR_DEFAULT_DEVICE, O_RDWR | O_CLOEXEC);
	if (fd < 0)
		return 0;
	p = mmap(NULL, st.map_size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	close(fd);
	if (p == MAP_FAILED)
		return 0;
	for (uint32_t i = 0; i < st.nr_buffers && done < n; i++) {
		struct fdr_buffer_desc *d = (struct fdr_buffer_desc *)
			(p + tr.view.descs_offset) + i;

		if (__atomic_load_n(&d->state, __ATOMIC_ACQUIRE) != FDR_BUF_RELEASED)
			continue;
		__atomic_store_n(&d->extents, 0, __ATOMIC_RELEASE);
		__atomic_store_n(&d->state, FDR_BUF_FREE, __ATOMIC_RELEASE);
		done++;
	}
	munmap(p, st.map_size);
	return done;
}

static int newest(uint32_t *which)
{
	uint32_t idx[256];
	int n = tr_buffers_by_seq(&tr, idx, 256);

	if (n == 0)
		return 0;
	*which = idx[n - 1];
	return parse_buffer(tr_buffer(&tr, idx[n - 1]),
			    tr_desc(&tr, idx[n - 1])->extents, recs, 2048, err,
			    sizeof(err));
}

static bool test_flag(void)
{
	struct fdr_status st;

	if (!start(FDR_INIT_STREAM))
		return false;
	CHECK(fdr_ctl_status(tr.ctl, &st) == 0 && st.flags & FDR_CTL_STREAM,
	      "STATUS flags %#x", st.flags);
	CHECK(tr.c->flags & FDR_CTL_STREAM, "control page flags %#x", tr.c->flags);
	stop();
	if (!start(0))
		return false;
	CHECK(fdr_ctl_status(tr.ctl, &st) == 0 && !(st.flags & FDR_CTL_STREAM),
	      "a flight region: flags %#x", st.flags);
	stop();
	return true;
}

/* Every buffer full, then 1000 records dropped on ring 0 only. */
static bool fill_stream(void)
{
	uint64_t t0;

	CHECK(fill(1000000) > 0, "a record was dropped once every buffer was full");
	CHECK(count_state(FDR_BUF_RELEASED) == tr.c->nr_buffers,
	      "all %u buffers RELEASED: %u", tr.c->nr_buffers,
	      count_state(FDR_BUF_RELEASED));
	t0 = tr_now_ns();
	for (int i = 0; i < 999; i++)
		fdr_enter(2);
	CHECK(tr_now_ns() - t0 < 2000000000ull, "the drops were not waited for");
	CHECK(ring_drops(0) == 1000, "ring 0: %llu",
	      (unsigned long long)ring_drops(0));
	for (uint32_t i = 1; i < tr.c->nr_cpus; i++)
		CHECK(ring_drops(i) == 0, "ring %u: %llu", i,
		      (unsigned long long)ring_drops(i));
	CHECK(dropped() == 1000, "STATUS.records_dropped %llu",
	      (unsigned long long)dropped());
	return true;
}

static bool test_drops(void)
{
	struct fdr_status st;

	if (!start(FDR_INIT_STREAM) || !fill_stream())
		return false;
	CHECK(fdr_ctl_status(tr.ctl, &st) == 0 && st.buffers_recycled == 0 &&
	      st.buffers_in_use == 0, "recycled %llu, in use %u",
	      (unsigned long long)st.buffers_recycled, st.buffers_in_use);
	stop();
	return true;
}

static bool test_marker(void)
{
	struct fdr_drop_event ev;
	uint32_t which;
	int n;

	if (!start(FDR_INIT_STREAM) || !fill_stream())
		return false;
	/* The stream flusher's flush, begun while INITIALIZED. */
	CHECK(fdr_ctl_flush_begin(tr.ctl) == 0, "stream flush begun");
	CHECK(flush_released(2) == 2, "two buffers written and freed");
	fdr_enter(777);
	n = newest(&which);
	CHECK(n == 5, "NewBuffer, Walltime, NewCPUId, marker, Enter: %d %s", n, err);
	CHECK(tr_desc(&tr, which)->state == FDR_BUF_HELD, "a freed buffer taken");
	CHECK(recs[2].type == REC_NEW_CPU && recs[3].type == REC_CUSTOM &&
	      recs[3].ev_size == FDR_DROP_EVENT_SIZE &&
	      recs[3].offset == FDR_BUFFER_PREAMBLE_SIZE + FDR_METADATA_SIZE &&
	      recs[3].tsc == recs[2].tsc, "the marker right after the preamble");
	memcpy(&ev, recs[3].ev_data, sizeof(ev));
	CHECK(!memcmp(ev.magic, FDR_DROP_EVENT_MAGIC, 8) && ev.records == 1000,
	      "fdr.drop, %llu records", (unsigned long long)ev.records);
	CHECK(recs[4].type == REC_FN && recs[4].fid == 777, "then the record");
	CHECK(fdr_ctl_finalize(tr.ctl) == 0 && fdr_ctl_flush_done(tr.ctl) == 0,
	      "finalize, then the stream flush is done");
	stop();
	return true;
}

static bool test_flight_recycles(void)
{
	struct fdr_status st;

	if (!start(0))
		return false;
	CHECK(fill(20000) == 0, "no record dropped");
	CHECK(fdr_ctl_status(tr.ctl, &st) == 0 && st.records_dropped == 0 &&
	      st.buffers_recycled > 0, "dropped %llu, recycled %llu",
	      (unsigned long long)st.records_dropped,
	      (unsigned long long)st.buffers_recycled);
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

/* a began the flush; b, another file, may not end it. */
static bool transitions(struct fdr_ctl *a, struct fdr_ctl *b)
{
	struct fdr_init cfg = cfg_of(FDR_INIT_STREAM);

	EXPECT(fdr_ctl_flush_done(a), -EBUSY);
	EXPECT(fdr_ctl_flush_abort(a), -EBUSY);
	EXPECT(fdr_ctl_flush_begin(a), 0);
	if (!in_state(FDR_STATE_INITIALIZED, FDR_FLUSH_FLUSHING))
		return false;
	EXPECT(fdr_ctl_flush_begin(b), -EBUSY);
	EXPECT(fdr_ctl_flush_abort(b), -EBUSY);	/* not its flush */
	EXPECT(fdr_ctl_flush_done(a), -EBUSY);	/* not FINALIZED yet */
	EXPECT(fdr_ctl_reset(a), -EBUSY);
	EXPECT(fdr_ctl_flush_abort(a), 0);	/* while INITIALIZED */
	if (!in_state(FDR_STATE_INITIALIZED, FDR_FLUSH_NOT_FLUSHING))
		return false;
	EXPECT(fdr_ctl_flush_begin(b), 0);	/* begun again, by anyone */
	EXPECT(fdr_ctl_finalize(a), 0);
	if (!in_state(FDR_STATE_FINALIZED, FDR_FLUSH_FLUSHING))
		return false;
	EXPECT(fdr_ctl_flush_done(a), -EBUSY);	/* b's flush */
	EXPECT(fdr_ctl_reset(a), -EBUSY);
	EXPECT(fdr_ctl_flush_done(b), 0);
	if (!in_state(FDR_STATE_FINALIZED, FDR_FLUSH_FLUSHED))
		return false;
	EXPECT(fdr_ctl_reset(a), 0);
	/* TRIGGER while FLUSHING keeps the flush */
	EXPECT(fdr_ctl_init(a, &cfg), 0);
	EXPECT(fdr_ctl_flush_begin(a), 0);
	EXPECT(fdr_ctl_trigger(b, NULL), 0);
	if (!in_state(FDR_STATE_FINALIZED, FDR_FLUSH_FLUSHING))
		return false;
	EXPECT(fdr_ctl_flush_done(a), 0);
	EXPECT(fdr_ctl_reset(a), 0);
	return true;
}

/* The release of the file that began a stream flush aborts it. */
static bool release_aborts(void)
{
	struct fdr_ctl *c;

	CHECK(fdr_ctl_open(&c, FDR_DEFAULT_DEVICE) == 0, "open");
	EXPECT(fdr_ctl_flush_begin(c), 0);
	fdr_ctl_close(c);
	return in_state(FDR_STATE_INITIALIZED, FDR_FLUSH_NOT_FLUSHING);
}

/* A writer killed by a signal finalizes (crash); the flush goes on. */
static bool crash_keeps_flush(void)
{
	struct fdr_status st;
	pid_t pid;
	int status;

	EXPECT(fdr_ctl_flush_begin(tr.ctl), 0);
	fdr_detach();
	pid = fork();
	if (pid == 0) {
		fdr_attach(tr.target);
		fdr_enter(7);
		raise(SIGKILL);
		_exit(0);
	}
	waitpid(pid, &status, 0);
	CHECK(fdr_ctl_status(tr.ctl, &st) == 0 && st.state == FDR_STATE_FINALIZED &&
	      st.finalize_reason == FDR_FINALIZE_CRASH &&
	      st.flush_state == FDR_FLUSH_FLUSHING,
	      "crash finalize while streaming: %s/%s reason %u",
	      fdr_state_name(st.state), fdr_flush_state_name(st.flush_state),
	      st.finalize_reason);
	EXPECT(fdr_ctl_flush_done(tr.ctl), 0);
	return true;
}

static bool test_transitions(void)
{
	struct fdr_ctl *b;
	bool ok;

	if (!start(FDR_INIT_STREAM))
		return false;
	CHECK(fdr_ctl_open(&b, FDR_DEFAULT_DEVICE) == 0, "a second file");
	ok = transitions(tr.ctl, b);
	fdr_ctl_close(b);
	if (!ok)
		return false;
	stop();
	if (!start(FDR_INIT_STREAM) || !release_aborts() || !crash_keeps_flush())
		return false;
	stop();
	/* A flight region flushes only once FINALIZED. */
	if (!start(0))
		return false;
	EXPECT(fdr_ctl_flush_begin(tr.ctl), -EBUSY);
	EXPECT(fdr_ctl_flush_abort(tr.ctl), -EBUSY);
	if (!in_state(FDR_STATE_INITIALIZED, FDR_FLUSH_NOT_FLUSHING))
		return false;
	stop();
	return true;
}

/* RESET and INIT: STATUS and every ring start again from 0. */
static bool test_init_zeroes(void)
{
	struct fdr_init cfg = cfg_of(FDR_INIT_STREAM);

	if (!start(FDR_INIT_STREAM) || !fill_stream())
		return false;
	fdr_detach();
	EXPECT(fdr_ctl_finalize(tr.ctl), 0);
	EXPECT(fdr_ctl_reset(tr.ctl), 0);
	EXPECT(fdr_ctl_init(tr.ctl, &cfg), 0);
	CHECK(fdr_ctl_map(tr.ctl, &tr.c, &tr.len) == 0, "map the new region");
	CHECK(dropped() == 0, "STATUS.records_dropped %llu",
	      (unsigned long long)dropped());
	for (uint32_t i = 0; i < tr.c->nr_cpus; i++)
		CHECK(ring_drops(i) == 0, "ring %u: %llu", i,
		      (unsigned long long)ring_drops(i));
	stop();
	return true;
}

/* The module refuses FDR_INIT_STREAM (EINVAL): it predates streaming. */
static bool module_streams(void)
{
	struct fdr_init cfg = cfg_of(FDR_INIT_STREAM);
	struct fdr_ctl *ctl;
	int ret = fdr_ctl_open(&ctl, FDR_DEFAULT_DEVICE);

	if (ret == 0)
		ret = tr_to_uninitialized(ctl);
	if (ret == 0)
		ret = fdr_ctl_init(ctl, &cfg);
	if (ret == -EINVAL)
		tap_diag("%s", fdr_ctl_strerror(ctl, "init", ret));
	if (ret == 0)
		tr_to_uninitialized(ctl);
	fdr_ctl_close(ctl);
	return ret != -EINVAL;
}

int main(void)
{
	tap_plan(NTESTS);
	if (access(FDR_DEFAULT_DEVICE, F_OK)) {
		for (int i = 0; i < NTESTS; i++)
			tap_skip("no /dev/fdr", "device stream %d", i + 1);
		return 0;
	}
	if (!module_streams()) {
		for (int i = 0; i < NTESTS; i++)
			tap_skip("fdr.ko has no streaming mode", "device stream %d",
				 i + 1);
		return 0;
	}
	tr_pin_cpu(0);
	tap_ok(test_flag(), "FDR_INIT_STREAM: the kernel sets FDR_CTL_STREAM");
	tap_ok(test_drops(), "stream: every buffer full, then dropped and counted on the writer's CPU, not waited for");
	tap_ok(test_marker(), "stream: a buffer the flusher freed starts with the drop marker, exact count");
	tap_ok(test_flight_recycles(), "flight recorder: RELEASED buffers recycled, nothing dropped");
	tap_ok(test_transitions(),
	       "stream flush: begun INITIALIZED, its file's, FLUSHING through finalize, trigger and crash; DONE once FINALIZED");
	tap_ok(test_init_zeroes(), "RESET and INIT zero the drop counters, STATUS and per CPU");
	return tap_done();
}
