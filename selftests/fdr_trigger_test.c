// SPDX-License-Identifier: GPL-2.0
/*
 * fdr_trigger_test.c - the latency trigger: fdr_init VER1 and its checks,
 * FDR_IOC_TRIGGER's transition and what it names (STATUS and the control
 * area), the device-wide holdoff across RESET and INIT, the TSC hint,
 * argument checks, a writer scribbling over the trigger line, and a
 * thread of another process firing.
 *
 * The holdoff is the device's: a trigger fired by one case holds off the
 * next case's.  Cases that need a trigger to fire use a holdoff of 0 or
 * start with a trigger by hand, which is never held off.
 */
#include <errno.h>
#include <poll.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <x86intrin.h>
#include "kselftest_harness.h"
#include "fdr_fixture.h"

#define BUF_SIZE	4096
#define BUFS_PER_CPU	2
#define HOLDOFF_LONG_MS	5000	/* far longer than RESET + INIT under TCG */
#define HOLDOFF_SHORT_MS 200

static pid_t gettid_(void)
{
	return syscall(SYS_gettid);
}

static uint64_t mono_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000ull + ts.tv_nsec;
}

static int init_trig(int fd, uint64_t ns, int32_t fid, uint32_t holdoff_ms)
{
	return fdrt_init_trigger(fd, BUF_SIZE, BUFS_PER_CPU, ns, fid,
				 holdoff_ms);
}

/* FINALIZED -> UNINITIALIZED -> INITIALIZED with a new trigger config. */
static int reinit(int fd, uint64_t ns, int32_t fid, uint32_t holdoff_ms)
{
	int err = fdrt_ioctl(fd, FDR_IOC_RESET);

	return err ? err : init_trig(fd, ns, fid, holdoff_ms);
}

/* The control area, read-only: mapping it so does not make us a writer. */
static const struct fdr_control *map_ro(int fd, size_t *len)
{
	return fdrt_map(fd, PROT_READ, len);
}

static void unmap(const void *p, size_t len)
{
	munmap((void *)p, len);
}

TEST_F(dev, init_ver1_validation)
{
	struct fdr_init cfg;
	struct fdr_status before, st;
	uint32_t i;
	const struct {
		int32_t fid;
		uint64_t ns;
		uint32_t holdoff;
	} bad[] = {
		{ -1, 1000, 0 },		/* negative fid */
		{ INT32_MIN, 1000, 0 },
		{ 5, 0, 0 },			/* a fid without a duration */
		{ 0, 1000, FDR_TRIGGER_HOLDOFF_MAX_MS + 1 },
		{ 0, 0, UINT32_MAX },
	};

	REQUIRE_DEV();
	ASSERT_EQ(0, fdrt_status(self->fd, &before));
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		memset(&cfg, 0, sizeof(cfg));
		cfg.size = FDR_INIT_SIZE_VER1;
		cfg.flags = FDR_INIT_NO_SCHED;
		cfg.buffer_size = BUF_SIZE;
		cfg.buffers_per_cpu = BUFS_PER_CPU;
		cfg.trigger_fid = bad[i].fid;
		cfg.trigger_ns = bad[i].ns;
		cfg.trigger_holdoff_ms = bad[i].holdoff;
		ASSERT_EQ(-1, ioctl(self->fd, FDR_IOC_INIT, &cfg)) {
			TH_LOG("case %u accepted", i);
		}
		ASSERT_EQ(EINVAL, errno);
		ASSERT_EQ(0, fdrt_status(self->fd, &st));
		ASSERT_EQ(FDR_STATE_UNINITIALIZED, st.state);
		ASSERT_EQ(before.generation, st.generation);
		ASSERT_EQ(0, st.map_size);
	}

	/* The limits themselves are accepted. */
	ASSERT_EQ(0, init_trig(self->fd, 1, INT32_MAX,
			       FDR_TRIGGER_HOLDOFF_MAX_MS));
	ASSERT_EQ(0, fdrt_status(self->fd, &st));
	ASSERT_EQ(1, st.trigger_ns);
	ASSERT_EQ(INT32_MAX, st.trigger_fid);
	ASSERT_EQ(FDR_TRIGGER_HOLDOFF_MAX_MS, st.trigger_holdoff_ms);
	ASSERT_EQ(0, fdrt_ioctl(self->fd, FDR_IOC_FINALIZE));
	/* A duration alone (any function) is a trigger too. */
	ASSERT_EQ(0, reinit(self->fd, 1000, 0, 0));
	ASSERT_EQ(0, fdrt_ioctl(self->fd, FDR_IOC_FINALIZE));
	ASSERT_EQ(0, fdrt_ioctl(self->fd, FDR_IOC_RESET));
}

TEST_F(dev, init_ver0_has_no_trigger)
{
	struct fdr_init cfg = {
		.size = FDR_INIT_SIZE_VER0,
		.flags = FDR_INIT_NO_SCHED,
		.buffer_size = BUF_SIZE,
		.buffers_per_cpu = BUFS_PER_CPU,
		/* beyond VER0: the kernel must not read these */
		.trigger_ns = 1000,
		.trigger_fid = -1,
		.trigger_holdoff_ms = UINT32_MAX,
	};
	const struct fdr_control *c;
	struct fdr_status st;
	size_t len;

	REQUIRE_DEV();
	ASSERT_EQ(0, ioctl(self->fd, FDR_IOC_INIT, &cfg));
	ASSERT_EQ(0, fdrt_status(self->fd, &st));
	ASSERT_EQ(FDR_STATE_INITIALIZED, st.state);
	ASSERT_EQ(0, st.trigger_ns);
	ASSERT_EQ(0, st.trigger_fid);
	ASSERT_EQ(0, st.trigger_holdoff_ms);
	c = map_ro(self->fd, &len);
	ASSERT_NE(NULL, c);
	EXPECT_EQ(0, c->trigger_ns);
	EXPECT_EQ(0, c->trigger_fid);
	EXPECT_EQ(0, c->trigger_holdoff_ms);
	EXPECT_EQ(0, c->trigger_not_before_tsc);
	EXPECT_EQ(0, c->triggers_fired);
	EXPECT_EQ(0, c->triggers_refused);
	unmap(c, len);
}

TEST_F(dev, init_ver1_config_in_control_area)
{
	const struct fdr_control *c;
	struct fdr_status st;
	size_t len;

	REQUIRE_DEV();
	ASSERT_EQ(0, init_trig(self->fd, 2500000, 42, 0));
	ASSERT_EQ(0, fdrt_status(self->fd, &st));
	ASSERT_EQ(2500000, st.trigger_ns);
	ASSERT_EQ(42, st.trigger_fid);
	ASSERT_EQ(0, st.trigger_holdoff_ms);
	ASSERT_EQ(0, st.triggers_fired);
	ASSERT_EQ(0, st.triggers_refused);
	c = map_ro(self->fd, &len);
	ASSERT_NE(NULL, c);
	EXPECT_EQ(2500000, c->trigger_ns);
	EXPECT_EQ(42, c->trigger_fid);
	EXPECT_EQ(0, c->trigger_holdoff_ms);
	/* No holdoff: no hint, whatever fired before. */
	EXPECT_EQ(0, c->trigger_not_before_tsc);
	unmap(c, len);
}

TEST_F(dev, trigger_finalizes_and_names_the_caller)
{
	const struct fdr_control *c;
	struct fdr_status st;
	uint64_t t0, t1;
	size_t len;

	REQUIRE_DEV();
	ASSERT_EQ(0, init_trig(self->fd, 1000, 7, 0));
	c = map_ro(self->fd, &len);
	ASSERT_NE(NULL, c);
	t0 = mono_ns();
	ASSERT_EQ(0, fdrt_trigger(self->fd, 0, 7, 123456789));
	t1 = mono_ns();

	ASSERT_EQ(0, fdrt_status(self->fd, &st));
	ASSERT_EQ(FDR_STATE_FINALIZED, st.state);
	ASSERT_EQ(FDR_FLUSH_NOT_FLUSHING, st.flush_state);
	ASSERT_EQ(FDR_FINALIZE_TRIGGER, st.finalize_reason);
	ASSERT_EQ(0, st.finalize_signal);
	ASSERT_EQ(getpid(), st.finalize_pid);
	ASSERT_EQ(gettid_(), st.finalize_tid);
	ASSERT_EQ(7, st.finalize_fid);
	ASSERT_EQ(123456789, st.finalize_duration_ns);
	ASSERT_EQ(1, st.triggers_fired);
	ASSERT_EQ(0, st.triggers_refused);
	/* The config stays the region's. */
	ASSERT_EQ(1000, st.trigger_ns);
	ASSERT_EQ(7, st.trigger_fid);

	EXPECT_EQ(FDR_STATE_FINALIZED, c->state);
	EXPECT_EQ(FDR_FINALIZE_TRIGGER, c->finalize_reason);
	EXPECT_EQ(getpid(), c->finalize_pid);
	EXPECT_EQ(gettid_(), c->finalize_tid);
	EXPECT_EQ(7, c->finalize_fid);
	EXPECT_EQ(123456789, c->finalize_duration_ns);
	EXPECT_EQ(1, c->triggers_fired);
	EXPECT_EQ(0, c->triggers_refused);
	EXPECT_LE(t0, c->trigger_last_ns);
	EXPECT_GE(t1, c->trigger_last_ns);
	EXPECT_EQ(c->finalize_time_ns, c->trigger_last_ns);
	EXPECT_EQ(0, c->trigger_not_before_tsc);	/* holdoff 0 */
	unmap(c, len);

	/* RESET forgets the finalize; the next region starts at zero. */
	ASSERT_EQ(0, reinit(self->fd, 0, 0, 0));
	ASSERT_EQ(0, fdrt_status(self->fd, &st));
	ASSERT_EQ(FDR_FINALIZE_NONE, st.finalize_reason);
	ASSERT_EQ(0, st.finalize_tid);
	ASSERT_EQ(0, st.finalize_fid);
	ASSERT_EQ(0, st.finalize_duration_ns);
	ASSERT_EQ(0, st.triggers_fired);
	c = map_ro(self->fd, &len);
	ASSERT_NE(NULL, c);
	EXPECT_EQ(0, c->finalize_tid);
	EXPECT_EQ(0, c->triggers_fired);
	/* ... but the device still knows when it last fired. */
	EXPECT_LE(t0, c->trigger_last_ns);
	EXPECT_GE(t1, c->trigger_last_ns);
	unmap(c, len);
}

/* A plain FINALIZE names no thread, function or duration. */
TEST_F(dev, finalize_names_no_trigger)
{
	struct fdr_status st;

	REQUIRE_DEV();
	ASSERT_EQ(0, init_trig(self->fd, 1000, 0, 0));
	ASSERT_EQ(0, fdrt_ioctl(self->fd, FDR_IOC_FINALIZE));
	ASSERT_EQ(0, fdrt_status(self->fd, &st));
	ASSERT_EQ(FDR_FINALIZE_IOCTL, st.finalize_reason);
	ASSERT_EQ(getpid(), st.finalize_pid);
	ASSERT_EQ(0, st.finalize_tid);
	ASSERT_EQ(0, st.finalize_fid);
	ASSERT_EQ(0, st.finalize_duration_ns);
	ASSERT_EQ(0, st.triggers_fired);
}

TEST_F(dev, trigger_busy_outside_initialized)
{
	struct fdr_status a, b;

	REQUIRE_DEV();
	ASSERT_EQ(0, fdrt_status(self->fd, &a));
	ASSERT_EQ(FDR_STATE_UNINITIALIZED, a.state);
	ASSERT_EQ(-EBUSY, fdrt_trigger(self->fd, 0, 1, 1));
	ASSERT_EQ(-EBUSY, fdrt_trigger(self->fd, FDR_TRIGGER_BY_HAND, 0, 0));
	ASSERT_EQ(0, fdrt_status(self->fd, &b));
	ASSERT_EQ(FDR_STATE_UNINITIALIZED, b.state);
	ASSERT_EQ(a.generation, b.generation);
	ASSERT_EQ(FDR_FINALIZE_NONE, b.finalize_reason);

	ASSERT_EQ(0, init_trig(self->fd, 1000, 0, 0));
	ASSERT_EQ(0, fdrt_ioctl(self->fd, FDR_IOC_FINALIZE));
	ASSERT_EQ(0, fdrt_status(self->fd, &a));
	ASSERT_EQ(-EBUSY, fdrt_trigger(self->fd, 0, 1, 1));
	ASSERT_EQ(-EBUSY, fdrt_trigger(self->fd, FDR_TRIGGER_BY_HAND, 0, 0));
	ASSERT_EQ(0, fdrt_status(self->fd, &b));
	ASSERT_EQ(FDR_STATE_FINALIZED, b.state);
	ASSERT_EQ(FDR_FINALIZE_IOCTL, b.finalize_reason);
	ASSERT_EQ(a.finalize_pid, b.finalize_pid);
	ASSERT_EQ(0, b.finalize_tid);
	ASSERT_EQ(0, b.finalize_fid);
	ASSERT_EQ(0, b.triggers_fired);
	ASSERT_EQ(0, b.triggers_refused);	/* busy is not refused */

	/* FLUSHING too. */
	ASSERT_EQ(0, fdrt_ioctl(self->fd, FDR_IOC_FLUSH_BEGIN));
	ASSERT_EQ(-EBUSY, fdrt_trigger(self->fd, FDR_TRIGGER_BY_HAND, 0, 0));
	ASSERT_EQ(0, fdrt_status(self->fd, &b));
	ASSERT_EQ(FDR_FLUSH_FLUSHING, b.flush_state);
	ASSERT_EQ(FDR_FINALIZE_IOCTL, b.finalize_reason);
	ASSERT_EQ(0, fdrt_ioctl(self->fd, FDR_IOC_FLUSH_DONE));
}

/* Fire by hand, then RESET and INIT: the holdoff outlives the region. */
TEST_F(dev, holdoff_across_reset_and_init)
{
	const struct fdr_control *c;
	struct fdr_status st;
	uint64_t t0, t1, tsc0, tsc1, hold, nb;
	size_t len;
	struct pollfd pfd = { .fd = self->fd, .events = POLLPRI };

	REQUIRE_DEV();
	ASSERT_EQ(0, init_trig(self->fd, 1000, 0, HOLDOFF_LONG_MS));
	c = map_ro(self->fd, &len);
	ASSERT_NE(NULL, c);
	t0 = mono_ns();
	tsc0 = __rdtsc();
	ASSERT_EQ(0, fdrt_trigger(self->fd, FDR_TRIGGER_BY_HAND, 0, 0));
	tsc1 = __rdtsc();
	t1 = mono_ns();
	ASSERT_EQ(0, fdrt_status(self->fd, &st));
	ASSERT_EQ(FDR_FINALIZE_TRIGGER, st.finalize_reason);
	ASSERT_EQ(1, st.triggers_fired);
	/* The TSC hint: where the holdoff ends, ahead of the fire. */
	hold = (uint64_t)HOLDOFF_LONG_MS * (st.tsc_hz / 1000);
	nb = c->trigger_not_before_tsc;
	if (st.tsc_hz) {
		EXPECT_NE(0, nb);
		EXPECT_LE(tsc0 + hold, nb);
		EXPECT_GE(tsc1 + hold, nb);
		EXPECT_LT(tsc1, nb);
	} else {
		EXPECT_EQ(0, nb);
	}
	unmap(c, len);

	ASSERT_EQ(0, reinit(self->fd, 1000, 0, HOLDOFF_LONG_MS));
	c = map_ro(self->fd, &len);
	ASSERT_NE(NULL, c);
	/* The new region's hint comes from the device's last trigger. */
	EXPECT_EQ(nb, c->trigger_not_before_tsc);
	EXPECT_LE(t0, c->trigger_last_ns);
	EXPECT_GE(t1, c->trigger_last_ns);
	ASSERT_EQ(0, fdrt_status(self->fd, &st));	/* events seen */

	ASSERT_EQ(-EAGAIN, fdrt_trigger(self->fd, 0, 9, 5000));
	ASSERT_GT(t0 + HOLDOFF_LONG_MS * 1000000ull, mono_ns()) {
		TH_LOG("RESET + INIT outlasted the holdoff: no test");
	}
	ASSERT_EQ(0, fdrt_status(self->fd, &st));
	ASSERT_EQ(FDR_STATE_INITIALIZED, st.state);
	ASSERT_EQ(FDR_FINALIZE_NONE, st.finalize_reason);
	ASSERT_EQ(0, st.finalize_pid);
	ASSERT_EQ(0, st.finalize_tid);
	ASSERT_EQ(0, st.finalize_fid);
	ASSERT_EQ(0, st.triggers_fired);
	ASSERT_EQ(1, st.triggers_refused);
	EXPECT_EQ(FDR_STATE_INITIALIZED, c->state);
	EXPECT_EQ(1, c->triggers_refused);
	EXPECT_EQ(0, c->triggers_fired);
	EXPECT_EQ(0, c->finalize_fid);
	/* A refusal is no state change: pollers are not woken. */
	EXPECT_EQ(0, poll(&pfd, 1, 0));
	ASSERT_EQ(-EAGAIN, fdrt_trigger(self->fd, 0, 9, 5000));
	ASSERT_EQ(0, fdrt_status(self->fd, &st));
	ASSERT_EQ(2, st.triggers_refused);

	/* By hand: never held off, and it starts a new holdoff. */
	tsc0 = __rdtsc();
	ASSERT_EQ(0, fdrt_trigger(self->fd, FDR_TRIGGER_BY_HAND, 0, 0));
	tsc1 = __rdtsc();
	ASSERT_EQ(0, fdrt_status(self->fd, &st));
	ASSERT_EQ(FDR_STATE_FINALIZED, st.state);
	ASSERT_EQ(FDR_FINALIZE_TRIGGER, st.finalize_reason);
	ASSERT_EQ(1, st.triggers_fired);
	ASSERT_EQ(2, st.triggers_refused);
	EXPECT_EQ(1, c->triggers_fired);
	EXPECT_EQ(2, c->triggers_refused);
	if (st.tsc_hz) {
		EXPECT_LE(tsc0 + hold, c->trigger_not_before_tsc);
		EXPECT_GE(tsc1 + hold, c->trigger_not_before_tsc);
	}
	unmap(c, len);

	/* The counters are the region's: INIT starts them at zero. */
	ASSERT_EQ(0, reinit(self->fd, 1000, 0, HOLDOFF_LONG_MS));
	ASSERT_EQ(0, fdrt_status(self->fd, &st));
	ASSERT_EQ(0, st.triggers_fired);
	ASSERT_EQ(0, st.triggers_refused);
}

TEST_F(dev, holdoff_ends)
{
	struct fdr_status st;
	uint64_t fired;

	REQUIRE_DEV();
	ASSERT_EQ(0, init_trig(self->fd, 1000, 0, HOLDOFF_SHORT_MS));
	ASSERT_EQ(0, fdrt_trigger(self->fd, FDR_TRIGGER_BY_HAND, 0, 0));
	fired = mono_ns();
	ASSERT_EQ(0, reinit(self->fd, 1000, 0, HOLDOFF_SHORT_MS));
	/* Inside the holdoff still, unless RESET + INIT took 200 ms. */
	if (mono_ns() - fired < HOLDOFF_SHORT_MS * 1000000ull / 2)
		ASSERT_EQ(-EAGAIN, fdrt_trigger(self->fd, 0, 1, 1));
	usleep((HOLDOFF_SHORT_MS + 100) * 1000);
	ASSERT_EQ(0, fdrt_trigger(self->fd, 0, 1, 1));
	ASSERT_EQ(0, fdrt_status(self->fd, &st));
	ASSERT_EQ(FDR_FINALIZE_TRIGGER, st.finalize_reason);
	ASSERT_EQ(1, st.triggers_fired);
}

/* Another region's holdoff is not this one's: only its own length counts. */
TEST_F(dev, holdoff_zero_never_refuses)
{
	const struct fdr_control *c;
	struct fdr_status st;
	size_t len;
	int i;

	REQUIRE_DEV();
	ASSERT_EQ(0, init_trig(self->fd, 1000, 0, HOLDOFF_LONG_MS));
	ASSERT_EQ(0, fdrt_trigger(self->fd, FDR_TRIGGER_BY_HAND, 0, 0));
	for (i = 0; i < 5; i++) {
		ASSERT_EQ(0, reinit(self->fd, 1000, 0, 0));
		c = map_ro(self->fd, &len);
		ASSERT_NE(NULL, c);
		EXPECT_EQ(0, c->trigger_not_before_tsc);
		unmap(c, len);
		ASSERT_EQ(0, fdrt_trigger(self->fd, 0, i, i));
		ASSERT_EQ(0, fdrt_status(self->fd, &st));
		ASSERT_EQ(FDR_FINALIZE_TRIGGER, st.finalize_reason);
		ASSERT_EQ(i, st.finalize_fid);
		ASSERT_EQ(1, st.triggers_fired);
		ASSERT_EQ(0, st.triggers_refused);
	}
}

TEST_F(dev, trigger_argument_checks)
{
	struct {
		struct fdr_trigger t;
		uint64_t tail;
	} big;
	struct fdr_trigger t;
	struct fdr_status st;
	uint32_t bit;

	REQUIRE_DEV();
	ASSERT_EQ(0, init_trig(self->fd, 1000, 0, 0));
	for (bit = 1; bit < 32; bit++) {
		memset(&t, 0, sizeof(t));
		t.size = sizeof(t);
		t.flags = 1u << bit;
		ASSERT_EQ(-1, ioctl(self->fd, FDR_IOC_TRIGGER, &t));
		ASSERT_EQ(EINVAL, errno);
	}
	memset(&t, 0, sizeof(t));
	t.size = sizeof(t);
	t.reserved = 1;
	ASSERT_EQ(-1, ioctl(self->fd, FDR_IOC_TRIGGER, &t));
	ASSERT_EQ(EINVAL, errno);
	t.reserved = 0;
	t.size = FDR_TRIGGER_SIZE_VER0 - 1;
	ASSERT_EQ(-1, ioctl(self->fd, FDR_IOC_TRIGGER, &t));
	ASSERT_EQ(EINVAL, errno);
	t.size = 0;
	ASSERT_EQ(-1, ioctl(self->fd, FDR_IOC_TRIGGER, &t));
	ASSERT_EQ(EINVAL, errno);
	ASSERT_EQ(-1, ioctl(self->fd, FDR_IOC_TRIGGER, NULL));
	ASSERT_EQ(EFAULT, errno);
	memset(&big, 0, sizeof(big));
	big.t.size = sizeof(big);
	big.tail = 1;
	ASSERT_EQ(-1, ioctl(self->fd, FDR_IOC_TRIGGER, &big));
	ASSERT_EQ(E2BIG, errno);
	big.t.size = 8192;
	ASSERT_EQ(-1, ioctl(self->fd, FDR_IOC_TRIGGER, &big));
	ASSERT_EQ(E2BIG, errno);

	/* Nothing above changed anything. */
	ASSERT_EQ(0, fdrt_status(self->fd, &st));
	ASSERT_EQ(FDR_STATE_INITIALIZED, st.state);
	ASSERT_EQ(0, st.triggers_fired);
	ASSERT_EQ(0, st.triggers_refused);

	/* A larger struct with a zero tail is fine. */
	big.t.size = sizeof(big);
	big.tail = 0;
	big.t.fid = 3;
	big.t.duration_ns = 77;
	ASSERT_EQ(0, ioctl(self->fd, FDR_IOC_TRIGGER, &big));
	ASSERT_EQ(0, fdrt_status(self->fd, &st));
	ASSERT_EQ(FDR_FINALIZE_TRIGGER, st.finalize_reason);
	ASSERT_EQ(3, st.finalize_fid);
	ASSERT_EQ(77, st.finalize_duration_ns);
}

/*
 * Callers built against older headers encode sizeof of their struct in
 * the ioctl number: those numbers work, any other size does not.
 */
TEST_F(dev, ioctl_numbers_of_older_headers)
{
	struct fdr_init cfg = {
		.size = FDR_INIT_SIZE_VER0,
		.flags = FDR_INIT_NO_SCHED,
		.buffer_size = BUF_SIZE,
		.buffers_per_cpu = BUFS_PER_CPU,
	};
	const unsigned long rw = _IOC_READ | _IOC_WRITE;
	struct fdr_status st;

	REQUIRE_DEV();
	/* The pinned numbers are what the first headers had. */
	ASSERT_EQ(_IOC(_IOC_WRITE, FDR_IOC_MAGIC, 1, 24), FDR_IOC_INIT);
	ASSERT_EQ(_IOC(rw, FDR_IOC_MAGIC, 7, 224), FDR_IOC_STATUS);
	ASSERT_EQ(_IOC(_IOC_WRITE, FDR_IOC_MAGIC, 9, 24), FDR_IOC_TRIGGER);

	ASSERT_EQ(-1, ioctl(self->fd, _IOC(_IOC_WRITE, FDR_IOC_MAGIC, 1, 32),
			    &cfg));
	ASSERT_EQ(ENOTTY, errno);
	ASSERT_EQ(0, ioctl(self->fd, _IOC(_IOC_WRITE, FDR_IOC_MAGIC, 1,
					  FDR_INIT_SIZE_VER1), &cfg));
	memset(&st, 0, sizeof(st));
	st.size = FDR_STATUS_SIZE_VER0;
	ASSERT_EQ(0, ioctl(self->fd, _IOC(rw, FDR_IOC_MAGIC, 7,
					  FDR_STATUS_SIZE_VER0), &st));
	ASSERT_EQ(FDR_STATUS_SIZE_VER0, st.size);
	ASSERT_EQ(FDR_STATE_INITIALIZED, st.state);
	memset(&st, 0, sizeof(st));
	st.size = sizeof(st);
	ASSERT_EQ(0, ioctl(self->fd, _IOC(rw, FDR_IOC_MAGIC, 7,
					  FDR_STATUS_SIZE_VER2), &st));
	ASSERT_EQ(FDR_STATUS_SIZE_VER3, st.size);
	ASSERT_EQ(-1, ioctl(self->fd, _IOC(rw, FDR_IOC_MAGIC, 7, 200), &st));
	ASSERT_EQ(ENOTTY, errno);
	/* TRIGGER's number has one size, and a direction. */
	ASSERT_EQ(-1, ioctl(self->fd, _IO(FDR_IOC_MAGIC, 9), &st));
	ASSERT_EQ(ENOTTY, errno);
	ASSERT_EQ(-1, ioctl(self->fd, _IOC(rw, FDR_IOC_MAGIC, 9, 24), &st));
	ASSERT_EQ(ENOTTY, errno);
	ASSERT_EQ(0, fdrt_status(self->fd, &st));
	ASSERT_EQ(FDR_STATE_INITIALIZED, st.state);
}

/* VER0 and VER1 callers get exactly their bytes; nothing past them. */
TEST_F(dev, status_versions)
{
	static const uint32_t sizes[] = {
		FDR_STATUS_SIZE_VER0, FDR_STATUS_SIZE_VER1,
		FDR_STATUS_SIZE_VER2, FDR_STATUS_SIZE_VER3,
	};
	unsigned char buf[FDR_STATUS_SIZE_VER3 + 32];
	struct fdr_status *st = (struct fdr_status *)buf;
	uint32_t i, j;

	REQUIRE_DEV();
	ASSERT_EQ(0, init_trig(self->fd, 1000, 11, 0));
	ASSERT_EQ(0, fdrt_trigger(self->fd, 0, 11, 2000));
	for (i = 0; i < 4; i++) {
		memset(buf, 0, sizeof(buf));
		memset(buf + sizes[i], 0xa5, sizeof(buf) - sizes[i]);
		st->size = sizes[i];
		ASSERT_EQ(0, ioctl(self->fd, FDR_IOC_STATUS, st));
		ASSERT_EQ(sizes[i], st->size);
		ASSERT_EQ(FDR_FINALIZE_TRIGGER, st->finalize_reason);
		for (j = sizes[i]; j < sizeof(buf); j++)
			ASSERT_EQ(0xa5, buf[j]) {
				TH_LOG("size %u: byte %u written", sizes[i], j);
			}
	}
	ASSERT_EQ(11, st->finalize_fid);
	ASSERT_EQ(2000, st->finalize_duration_ns);
	ASSERT_EQ(11, st->trigger_fid);
}

/* The control area is the writers': the kernel never reads it back. */
TEST_F(dev, scribbled_trigger_line_changes_nothing)
{
	struct fdr_control *c;
	struct fdr_status st;
	size_t len;

	REQUIRE_DEV();
	ASSERT_EQ(0, init_trig(self->fd, 1000, 3, 0));
	c = fdrt_map(self->fd, PROT_READ | PROT_WRITE, &len);
	ASSERT_NE(NULL, c);
	c->trigger_ns = 0;
	c->trigger_fid = -1;
	c->trigger_holdoff_ms = FDR_TRIGGER_HOLDOFF_MAX_MS;
	c->trigger_not_before_tsc = ~0ull;
	c->trigger_last_ns = ~0ull;
	c->triggers_fired = 77;
	c->triggers_refused = 88;
	c->finalize_tid = 1;
	c->finalize_fid = 99;
	c->finalize_duration_ns = 99;
	ASSERT_EQ(0, fdrt_status(self->fd, &st));
	ASSERT_EQ(1000, st.trigger_ns);
	ASSERT_EQ(3, st.trigger_fid);
	ASSERT_EQ(0, st.trigger_holdoff_ms);
	ASSERT_EQ(0, st.triggers_fired);
	ASSERT_EQ(0, st.triggers_refused);
	ASSERT_EQ(0, st.finalize_tid);
	ASSERT_EQ(0, st.finalize_fid);
	/* The scribbled holdoff holds nothing off. */
	ASSERT_EQ(0, fdrt_trigger(self->fd, 0, 3, 5));
	ASSERT_EQ(0, fdrt_status(self->fd, &st));
	ASSERT_EQ(1, st.triggers_fired);
	ASSERT_EQ(0, st.triggers_refused);
	ASSERT_EQ(gettid_(), st.finalize_tid);
	ASSERT_EQ(3, st.finalize_fid);
	ASSERT_EQ(5, st.finalize_duration_ns);
	/* The next publish rewrote the line from the kernel's copies. */
	EXPECT_EQ(1000, c->trigger_ns);
	EXPECT_EQ(3, c->trigger_fid);
	EXPECT_EQ(0, c->trigger_holdoff_ms);
	EXPECT_EQ(0, c->trigger_not_before_tsc);
	EXPECT_EQ(1, c->triggers_fired);
	EXPECT_EQ(0, c->triggers_refused);
	EXPECT_EQ(gettid_(), c->finalize_tid);
	munmap(c, len);

	/* A holdoff: scribbling its end or the last fire lets nothing by. */
	ASSERT_EQ(0, reinit(self->fd, 1000, 3, HOLDOFF_LONG_MS));
	ASSERT_EQ(0, fdrt_trigger(self->fd, FDR_TRIGGER_BY_HAND, 0, 0));
	ASSERT_EQ(0, reinit(self->fd, 1000, 3, HOLDOFF_LONG_MS));
	c = fdrt_map(self->fd, PROT_READ | PROT_WRITE, &len);
	ASSERT_NE(NULL, c);
	c->trigger_holdoff_ms = 0;
	c->trigger_not_before_tsc = 0;
	c->trigger_last_ns = 0;
	c->triggers_refused = ~0ull;
	ASSERT_EQ(-EAGAIN, fdrt_trigger(self->fd, 0, 3, 5));
	ASSERT_EQ(0, fdrt_status(self->fd, &st));
	ASSERT_EQ(FDR_STATE_INITIALIZED, st.state);
	ASSERT_EQ(1, st.triggers_refused);
	ASSERT_EQ(HOLDOFF_LONG_MS, st.trigger_holdoff_ms);
	EXPECT_EQ(1, c->triggers_refused);
	EXPECT_EQ(HOLDOFF_LONG_MS, c->trigger_holdoff_ms);
	EXPECT_NE(0, c->trigger_last_ns);
	munmap(c, len);
}

/* What a thread of another process saw when it fired. */
struct fired {
	pid_t pid, tid;
	int err;
	int fd;
};

static void *fire_thread(void *arg)
{
	struct fired *f = arg;

	f->tid = gettid_();
	f->err = fdrt_trigger(f->fd, 0, 1234, 987654321);
	return NULL;
}

static int fire_from_thread(void *arg)
{
	struct fired *f = arg;
	pthread_t th;

	f->pid = getpid();
	if (pthread_create(&th, NULL, fire_thread, f))
		return 2;
	pthread_join(th, NULL);
	return 0;
}

TEST_F(dev, thread_of_other_process_names_itself)
{
	const struct fdr_control *c;
	struct fdr_status st;
	struct fired *f;
	size_t len;
	pid_t pid;

	REQUIRE_DEV();
	f = mmap(NULL, sizeof(*f), PROT_READ | PROT_WRITE,
		 MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	ASSERT_NE(MAP_FAILED, f);
	memset(f, 0, sizeof(*f));
	f->err = 1;
	f->fd = self->fd;	/* the inherited file, as a writer's would be */
	ASSERT_EQ(0, init_trig(self->fd, 1000, 1234, 0));
	c = map_ro(self->fd, &len);
	ASSERT_NE(NULL, c);
	pid = fdrt_spawn(fire_from_thread, f);
	ASSERT_LT(0, pid);
	ASSERT_EQ(0, fdrt_wait(pid));
	ASSERT_EQ(0, f->err);
	ASSERT_EQ(pid, f->pid);
	ASSERT_NE(f->pid, f->tid);

	ASSERT_EQ(0, fdrt_status(self->fd, &st));
	ASSERT_EQ(FDR_FINALIZE_TRIGGER, st.finalize_reason);
	ASSERT_EQ(f->pid, st.finalize_pid);
	ASSERT_EQ(f->tid, st.finalize_tid);
	ASSERT_EQ(1234, st.finalize_fid);
	ASSERT_EQ(987654321, st.finalize_duration_ns);
	EXPECT_EQ(f->pid, c->finalize_pid);
	EXPECT_EQ(f->tid, c->finalize_tid);
	EXPECT_EQ(1234, c->finalize_fid);
	unmap(c, len);
	munmap(f, sizeof(*f));
}

/* What a thread in a new pid namespace saw: its ids there and outside. */
struct ns_fired {
	pid_t ns_pid, ns_tid;		/* getpid(), gettid() inside */
	pid_t host_pid, host_tid;	/* from /proc/thread-self (host /proc) */
	pid_t st_pid, st_tid;		/* its STATUS after firing */
	int err;
	int fd;
};

static void *ns_fire_thread(void *arg)
{
	struct ns_fired *f = arg;
	struct fdr_status st;
	char link[64] = "";

	f->ns_tid = gettid_();
	if (readlink("/proc/thread-self", link, sizeof(link) - 1) > 0)
		sscanf(link, "%d/task/%d", &f->host_pid, &f->host_tid);
	f->err = fdrt_trigger(f->fd, 0, 5, 6);
	if (!f->err && !fdrt_status(f->fd, &st)) {
		f->st_pid = st.finalize_pid;
		f->st_tid = st.finalize_tid;
	}
	return NULL;
}

static int ns_fire_main(void *arg)
{
	struct ns_fired *f = arg;
	pthread_t th;

	f->ns_pid = getpid();
	if (pthread_create(&th, NULL, ns_fire_thread, f))
		return 2;
	pthread_join(th, NULL);
	return 0;
}

/*
 * A thread in a child pid namespace fires: STATUS names it as each
 * caller sees it, the control area as the region's creator (we) does.
 */
TEST_F(dev, thread_in_pid_namespace_fires)
{
	static char stack[256 * 1024] __attribute__((aligned(16)));
	const struct fdr_control *c;
	struct fdr_status st;
	struct ns_fired *f;
	size_t len;
	pid_t pid;

	REQUIRE_DEV();
	f = mmap(NULL, sizeof(*f), PROT_READ | PROT_WRITE,
		 MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	ASSERT_NE(MAP_FAILED, f);
	memset(f, 0, sizeof(*f));
	f->err = 1;
	f->fd = self->fd;
	ASSERT_EQ(0, init_trig(self->fd, 1000, 5, 0));
	c = map_ro(self->fd, &len);
	ASSERT_NE(NULL, c);
	pid = clone(ns_fire_main, stack + sizeof(stack),
		    CLONE_NEWPID | SIGCHLD, f);
	ASSERT_LT(0, pid);
	ASSERT_EQ(0, fdrt_wait(pid));
	ASSERT_EQ(0, f->err);
	ASSERT_EQ(1, f->ns_pid);
	ASSERT_NE(1, f->ns_tid);
	ASSERT_EQ(pid, f->host_pid);
	ASSERT_LT(0, f->host_tid);
	ASSERT_NE(pid, f->host_tid);
	/* Its own view, inside the namespace. */
	ASSERT_EQ(1, f->st_pid);
	ASSERT_EQ(f->ns_tid, f->st_tid);
	/* Ours, and the control area's (the creator's namespace is ours). */
	ASSERT_EQ(0, fdrt_status(self->fd, &st));
	ASSERT_EQ(pid, st.finalize_pid);
	ASSERT_EQ(f->host_tid, st.finalize_tid);
	EXPECT_EQ(pid, c->finalize_pid);
	EXPECT_EQ(f->host_tid, c->finalize_tid);
	unmap(c, len);
	munmap(f, sizeof(*f));
}

/* INIT from inside a new pid namespace, then exit. */
static int ns_init_main(void *arg)
{
	int fd = fdrt_open();

	(void)arg;
	return fd >= 0 && init_trig(fd, 1000, 0, 0) == 0 ? 0 : 10;
}

/* The region's creator cannot see us: the control area names nobody. */
TEST_F(dev, trigger_the_creator_cannot_see)
{
	static char stack[64 * 1024] __attribute__((aligned(16)));
	const struct fdr_control *c;
	struct fdr_status st;
	size_t len;
	pid_t pid;

	REQUIRE_DEV();
	pid = clone(ns_init_main, stack + sizeof(stack),
		    CLONE_NEWPID | SIGCHLD, NULL);
	ASSERT_LT(0, pid);
	ASSERT_EQ(0, fdrt_wait(pid));
	c = map_ro(self->fd, &len);
	ASSERT_NE(NULL, c);
	ASSERT_EQ(0, fdrt_trigger(self->fd, 0, 8, 9));
	ASSERT_EQ(0, fdrt_status(self->fd, &st));
	ASSERT_EQ(getpid(), st.finalize_pid);
	ASSERT_EQ(gettid_(), st.finalize_tid);
	EXPECT_EQ(FDR_FINALIZE_TRIGGER, c->finalize_reason);
	EXPECT_EQ(0, c->finalize_pid);
	EXPECT_EQ(0, c->finalize_tid);
	EXPECT_EQ(8, c->finalize_fid);
	unmap(c, len);
}

TEST_HARNESS_MAIN
