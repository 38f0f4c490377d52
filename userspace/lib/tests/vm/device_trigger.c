// SPDX-License-Identifier: MIT
/*
 * device_trigger.c - the latency trigger through /dev/fdr, in the VM: a
 * writer's slow call fires FDR_IOC_TRIGGER (the log ends with it, the
 * kernel names its fid, duration, pid and tid), the holdoff across RESET
 * and INIT, triggers by hand, EBUSY.  SKIPs without /dev/fdr, and when
 * the module does not know FDR_IOC_TRIGGER (an older fdr.ko).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>
#include <linux/fdr_log.h>
#include <fdr_inline.h>
#include "tap.h"
#include "region_util.h"

#define NTESTS	4
#define MS	1000000ull
/*
 * The holdoff of the tests that fire inside it after a RESET and INIT:
 * far longer than those take even on a busy host under TCG (300 ms was
 * a bet on the host's idleness), and what each test waits out.
 */
#define HOLDOFF_MS	2000

static struct test_region tr;
static struct rec recs[4096];
static char err[256];

static void call(int32_t fid, uint64_t ns)
{
	fdr_enter(fid);
	tr_spin_ns(ns);
	fdr_exit(fid);
}

static struct fdr_init cfg_of(uint64_t ns, int32_t fid, uint32_t holdoff)
{
	struct fdr_init c = { .size = sizeof(c), .buffer_size = 8192,
			      .buffers_per_cpu = 2, .trigger_ns = ns,
			      .trigger_fid = fid, .trigger_holdoff_ms = holdoff };
	return c;
}

static bool start(const struct fdr_init *cfg)
{
	fdr_detach();
	setenv("FDR_OPTIONS", "func_duration_threshold_us=0", 1);
	CHECK(tr_open_device_cfg(&tr, cfg) == 0, "init /dev/fdr with a trigger");
	CHECK(fdr_attach(tr.target) == 0, "attach");
	CHECK(tr_map(&tr) == 0, "map");
	return true;
}

static void stop(void)
{
	fdr_detach();
	tr_destroy(&tr);
}

/* The newest buffer's last two function records. */
static bool ends_with_call(int32_t fid)
{
	uint32_t idx[256];
	int nb = tr_buffers_by_seq(&tr, idx, 256), n, last = -1, prev = -1;

	CHECK(nb > 0, "buffers");
	n = parse_buffer(tr_buffer(&tr, idx[nb - 1]),
			 tr_desc(&tr, idx[nb - 1])->extents, recs, 4096, err,
			 sizeof(err));
	CHECK(n > 0, "parse: %s", err);
	for (int i = 0; i < n; i++)
		if (recs[i].type == REC_FN) {
			prev = last;
			last = i;
		}
	CHECK(prev >= 0 && recs[last].fn_kind == FDR_FN_EXIT &&
	      recs[last].fid == (uint32_t)fid && recs[prev].fn_kind == FDR_FN_ENTER &&
	      recs[prev].fid == (uint32_t)fid,
	      "the log ends with the slow call's Enter and Exit");
	return true;
}

static bool test_writer_fires(void)
{
	struct fdr_init cfg = cfg_of(10 * MS, 7, 300);
	struct fdr_status st;
	int32_t tid = (int32_t)syscall(SYS_gettid);

	if (!start(&cfg))
		return false;
	for (int i = 0; i < 3000; i++)
		call(i == 1500 ? 7 : 1, i == 1500 ? 21 * MS : 10000);
	CHECK(fdr_ctl_status(tr.ctl, &st) == 0 && st.state == FDR_STATE_FINALIZED &&
	      st.finalize_reason == FDR_FINALIZE_TRIGGER,
	      "finalized by the trigger: %s reason %u", fdr_state_name(st.state),
	      st.finalize_reason);
	CHECK(st.finalize_fid == 7 && st.finalize_duration_ns >= 20 * MS &&
	      st.finalize_tid == tid && st.finalize_pid == st.owner_pid,
	      "fid %d, %llu ns, pid %d tid %d", st.finalize_fid,
	      (unsigned long long)st.finalize_duration_ns, st.finalize_pid,
	      st.finalize_tid);
	CHECK(st.trigger_ns == 10 * MS && st.trigger_fid == 7 &&
	      st.trigger_holdoff_ms == 300 && st.triggers_fired == 1,
	      "STATUS reports the trigger and one fired");
	if (!ends_with_call(7))
		return false;
	stop();
	return true;
}

static bool test_holdoff(void)
{
	struct fdr_init cfg = cfg_of(5 * MS, 0, HOLDOFF_MS);
	struct fdr_status st;

	tr_sleep_ms(HOLDOFF_MS + 50);	/* the last test's fire, under our holdoff */
	if (!start(&cfg))
		return false;
	call(3, 6 * MS);
	CHECK(fdr_ctl_status(tr.ctl, &st) == 0 && st.state == FDR_STATE_FINALIZED &&
	      st.finalize_fid == 3, "the first slow call fires");
	stop();
	if (!start(&cfg))
		return false;
	tr_sleep_ms(30);
	call(4, 6 * MS);
	CHECK(fdr_ctl_status(tr.ctl, &st) == 0 && st.state == FDR_STATE_INITIALIZED,
	      "after RESET and INIT, inside the holdoff: no finalize (%s)",
	      fdr_state_name(st.state));
	tr_sleep_ms(HOLDOFF_MS + 50);
	call(5, 6 * MS);
	CHECK(fdr_ctl_status(tr.ctl, &st) == 0 && st.state == FDR_STATE_FINALIZED &&
	      st.finalize_fid == 5, "after the holdoff it fires (%s fid %d)",
	      fdr_state_name(st.state), st.finalize_fid);
	stop();
	return true;
}

static bool test_by_hand(void)
{
	struct fdr_init cfg = cfg_of(0, 0, HOLDOFF_MS);
	struct fdr_trigger wt = { .size = sizeof(wt), .duration_ns = 1, .fid = 9 };
	struct fdr_status st;
	int ret;

	if (!start(&cfg))
		return false;
	ret = fdr_ctl_trigger(tr.ctl, NULL);
	CHECK(ret == 0 && fdr_ctl_status(tr.ctl, &st) == 0 &&
	      st.finalize_reason == FDR_FINALIZE_TRIGGER && st.finalize_fid == 0,
	      "by hand, inside the holdoff: %d", ret);
	ret = fdr_ctl_trigger(tr.ctl, NULL);
	CHECK(ret == -EBUSY, "a FINALIZED region: EBUSY (%d)", ret);
	stop();
	if (!start(&cfg))
		return false;
	ret = fdr_ctl_trigger(tr.ctl, &wt);
	CHECK(ret == -EAGAIN && fdr_ctl_status(tr.ctl, &st) == 0 &&
	      st.triggers_refused == 1 && st.state == FDR_STATE_INITIALIZED,
	      "by hand started a holdoff: %d", ret);
	CHECK(strstr(fdr_ctl_strerror(tr.ctl, "trigger", ret), "holdoff"),
	      "%s", fdr_ctl_strerror(tr.ctl, "trigger", ret));
	stop();
	return true;
}

/* No trigger: a slow call finalizes nothing and the inline path stays. */
static bool test_no_trigger(void)
{
	struct fdr_init cfg = cfg_of(0, 0, 0);
	struct fdr_status st;

	if (!start(&cfg))
		return false;
	call(1, 30 * MS);
	fdr_enter(2);
	fdr_exit(2);
	CHECK(fdr__thread.desc && fdr__thread.fast_size == fdr__thread.size,
	      "fast_size == size");
	CHECK(fdr_ctl_status(tr.ctl, &st) == 0 && st.state == FDR_STATE_INITIALIZED,
	      "no trigger: still recording");
	stop();
	return true;
}

int main(void)
{
	struct fdr_ctl *ctl;
	int ret;

	tap_plan(NTESTS);
	if (access(FDR_DEFAULT_DEVICE, F_OK)) {
		for (int i = 0; i < NTESTS; i++)
			tap_skip("no /dev/fdr", "device trigger %d", i + 1);
		return 0;
	}
	/* An fdr.ko without the trigger: ENOTTY (no such ioctl) or E2BIG
	 * (an fdr_init tail it does not know). */
	ret = fdr_ctl_open(&ctl, FDR_DEFAULT_DEVICE);
	if (ret == 0)
		ret = tr_to_uninitialized(ctl);
	if (ret == 0)
		ret = fdr_ctl_trigger(ctl, NULL);
	fdr_ctl_close(ctl);
	if (ret == -ENOTTY || ret == -EINVAL) {
		for (int i = 0; i < NTESTS; i++)
			tap_skip("fdr.ko has no FDR_IOC_TRIGGER", "device trigger %d",
				 i + 1);
		return 0;
	}
	tr_pin_cpu(0);
	tap_ok(test_writer_fires(), "a writer's slow call fires FDR_IOC_TRIGGER; the log ends with it");
	tap_ok(test_holdoff(), "the holdoff goes on across RESET and INIT");
	tap_ok(test_by_hand(), "by hand: not held off, starts a holdoff; EBUSY when finalized");
	tap_ok(test_no_trigger(), "no trigger: no finalize, the inline path kept");
	return tap_done();
}
