// SPDX-License-Identifier: GPL-2.0
/*
 * fdr_stress_test.c - concurrent callers: threads drive random
 * transitions, map and unmap, and children take buffers and get killed,
 * all at once, in the default session and in named ones that come and
 * go with their files, while another thread writes every writable module
 * parameter, valid values and refused ones.  Every call must answer 0 or
 * its documented errno, STATUS must always describe a possible state
 * (triggers included), and the kernel must not warn (the VM runner fails
 * the run on any WARNING/BUG; the module's unload warns if a byte of the
 * memory accounting is left over).
 */
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include "kselftest_harness.h"
#include "fdr_fixture.h"

/* 3 s by default; FDR_STRESS_MS=600000 makes it a 10-minute soak. */
#define RUN_MS_DEFAULT 3000
#define RUN_MS_MAX (14 * 60 * 1000)

enum { OP_FINALIZE, OP_FLUSH_BEGIN, OP_FLUSH_DONE, OP_FLUSH_ABORT, OP_RESET,
       OP_FORCE_ABORT, OP_REOPEN, OP_INIT, OP_STATUS, OP_TRIGGER,
       OP_SESSION, OP_INFO, NR_OPS };

struct shared {
	volatile int stop;
	int bad_errno;		/* first unexpected errno, 0 if none */
	int bad_status;		/* first impossible STATUS, 0 if none */
	unsigned long ok[NR_OPS];	/* successful calls per operation */
	unsigned long crashes_seen;	/* STATUS showed a crash finalize */
	unsigned long stream_flushes_seen; /* FLUSHING while INITIALIZED */
	unsigned long param_writes;	/* accepted parameter writes */
	unsigned long param_refusals;	/* refused ones (EINVAL, as they must) */
	unsigned long sched_refused;	/* INITs without the view (no slot) */
};

/*
 * Every writable parameter: values it must accept (small enough that
 * the regions of the run stay well inside the VM's memory) and values it
 * must refuse with EINVAL (0, past its bound, and sched_ring_kb's size
 * that used to truncate to an empty ring).
 */
static const struct stress_param {
	const char *name;
	long long good[3];
	long long bad[3];
} stress_params[] = {
	{ "buffer_size", { 4096, 65536, 1 << 20 },
	  { 0, 4097, (1ll << 30) + 4096 } },
	{ "buffers_per_cpu", { 1, 8, 64 }, { 0, 65537, -1 } },
	{ "crash_finalize", { 0, 1, 1 }, { 2, -1, 7 } },
	{ "max_total_mb", { 1, 64, 256 }, { 0, (1 << 20) + 1, -1 } },
	{ "max_user_mb", { 1, 16, 128 }, { 0, (1 << 20) + 1, -1 } },
	{ "max_user_sessions", { 1, 4, 16 }, { 0, 4097, -1 } },
	{ "max_user_sched", { 1, 4, 16 }, { 0, 17, -1 } },
	{ "sched_ring_kb", { 1, 256, 4096 }, { 0, 65537, 134217728 } },
};
#define NR_STRESS_PARAMS (sizeof(stress_params) / sizeof(stress_params[0]))

static int run_ms(void)
{
	const char *env = getenv("FDR_STRESS_MS");
	long ms = env ? atol(env) : RUN_MS_DEFAULT;

	return ms > 0 && ms <= RUN_MS_MAX ? (int)ms : RUN_MS_DEFAULT;
}

static uint64_t now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000ull + ts.tv_nsec / 1000000;
}

static void note(int *slot, int value)
{
	int zero = 0;

	__atomic_compare_exchange_n(slot, &zero, value, 0, __ATOMIC_SEQ_CST,
				    __ATOMIC_SEQ_CST);
}

/* A STATUS no sequence of transitions can produce; 0 if fine. */
static int impossible(const struct fdr_status *st)
{
	int has_region = st->map_size != 0;

	if (st->state > FDR_STATE_FINALIZED || st->state == FDR_STATE_FINALIZING)
		return 1;
	if (st->flush_state > FDR_FLUSH_FLUSHED)
		return 2;
	/* Only a stream flush runs before the finalize, and is not FLUSHED. */
	if (st->flush_state != FDR_FLUSH_NOT_FLUSHING &&
	    st->state != FDR_STATE_FINALIZED &&
	    !(st->state == FDR_STATE_INITIALIZED &&
	      st->flush_state == FDR_FLUSH_FLUSHING &&
	      (st->flags & FDR_CTL_STREAM)))
		return 3;
	if (has_region != (st->state >= FDR_STATE_INITIALIZED))
		return 4;
	if (has_region && st->nr_buffers != st->nr_cpus * st->buffers_per_cpu)
		return 5;
	if (st->buffers_in_use > st->nr_buffers)
		return 6;
	if ((st->finalize_reason != FDR_FINALIZE_NONE) !=
	    (st->state == FDR_STATE_FINALIZED))
		return 7;
	if (st->finalize_reason > FDR_FINALIZE_TRIGGER)
		return 8;
	/* Only a trigger names a thread; a region finalizes once. */
	if (st->finalize_tid && st->finalize_reason != FDR_FINALIZE_TRIGGER)
		return 9;
	if (st->triggers_fired > 1 || (st->triggers_fired &&
	    st->finalize_reason != FDR_FINALIZE_TRIGGER))
		return 10;
	if (st->trigger_holdoff_ms > FDR_TRIGGER_HOLDOFF_MAX_MS ||
	    st->trigger_fid < 0 || (st->trigger_fid && !st->trigger_ns))
		return 11;
	return 0;
}

/*
 * VER0, or VER1 with a random trigger and a holdoff of up to 20 ms; a
 * flight recorder or a stream region.
 */
static int random_init(int fd, unsigned int *seed)
{
	struct fdr_init cfg = {
		.size = FDR_INIT_SIZE_VER0,
		.buffer_size = 4096 * (1 + rand_r(seed) % 4),
		.buffers_per_cpu = 1 + rand_r(seed) % 4,
	};

	if (rand_r(seed) % 2)
		cfg.flags = FDR_INIT_STREAM;
	if (rand_r(seed) % 4 == 0)
		cfg.flags |= FDR_INIT_NO_SCHED;
	if (rand_r(seed) % 2) {
		cfg.size = FDR_INIT_SIZE_VER1;
		cfg.trigger_ns = 1 + rand_r(seed) % 1000000;
		cfg.trigger_fid = rand_r(seed) % 4;
		cfg.trigger_holdoff_ms = rand_r(seed) % 21;
	}
	return ioctl(fd, FDR_IOC_INIT, &cfg) ? -errno : 0;
}

/*
 * A random trigger: by hand or not (EAGAIN allowed inside the holdoff),
 * or now and then an unknown flag, which must be EINVAL whatever the
 * state.  Returns 0, -EBUSY (also for that EINVAL: refused as it must
 * be), -EAGAIN, or an unexpected errno (-ENOTRECOVERABLE: a bad flag
 * accepted).
 */
static int random_trigger(int fd, unsigned int *seed)
{
	uint32_t pick = rand_r(seed) % 8;
	int err;

	if (pick == 0) {
		err = fdrt_trigger(fd, 1u << (1 + rand_r(seed) % 31), 0, 0);
		return err == -EINVAL ? -EBUSY : (err ? err : -ENOTRECOVERABLE);
	}
	return fdrt_trigger(fd, pick < 4 ? FDR_TRIGGER_BY_HAND : 0,
			    rand_r(seed) % 4, rand_r(seed));
}

/*
 * A new file, left on the default session or bound to one of three named
 * ones (made by whoever comes first, gone with the last file and
 * mapping).  Returns the fd; *err is 0, -EBUSY for a race the ABI allows
 * (the name taken or gone in between), or an unexpected errno.
 */
static int random_open(unsigned int *seed, int *err)
{
	unsigned int pick = rand_r(seed) % 4;
	char name[16];
	int fd = fdrt_open();

	*err = fd < 0 ? fd : 0;
	if (fd < 0 || pick == 3)
		return fd;
	snprintf(name, sizeof(name), "stress-%u", pick);
	*err = fdrt_session(fd, FDR_IOC_SESSION_CREATE, name, 0, 0);
	if (*err == -EEXIST)
		*err = fdrt_session(fd, FDR_IOC_SESSION_ATTACH, name, 0, 0);
	/* EDQUOT: max_user_sessions, which the parameter writer moves. */
	if (*err == -ENOENT || *err == -EEXIST || *err == -EDQUOT)
		*err = -EBUSY;
	return fd;
}

static void *driver(void *p)
{
	static const unsigned long cmds[] = {
		FDR_IOC_FINALIZE, FDR_IOC_FLUSH_BEGIN, FDR_IOC_FLUSH_DONE,
		FDR_IOC_FLUSH_ABORT, FDR_IOC_RESET, FDR_IOC_FLUSH_FORCE_ABORT,
	};
	struct shared *sh = p;
	unsigned int seed = (unsigned int)(uintptr_t)&seed;
	int fd = fdrt_open();

	while (fd >= 0 && !sh->stop) {
		unsigned int pick = rand_r(&seed) % NR_OPS;
		struct fdr_status st;
		int err;

		if (pick == OP_INIT) {
			err = random_init(fd, &seed);
			/* The parameter writer moves the memory caps. */
			if (err == -ENOMEM || err == -EDQUOT)
				err = -EBUSY;
			if (!err && !fdrt_status(fd, &st) &&
			    (st.flags & FDR_CTL_SCHED_REFUSED))
				__atomic_add_fetch(&sh->sched_refused, 1,
						   __ATOMIC_RELAXED);
		} else if (pick == OP_TRIGGER) {
			err = random_trigger(fd, &seed);
			if (err == -EAGAIN)
				err = -EBUSY;	/* inside the holdoff */
		} else if (pick == OP_STATUS) {
			err = fdrt_status(fd, &st);
			if (!err && impossible(&st))
				note(&sh->bad_status, impossible(&st));
			if (!err && st.finalize_reason == FDR_FINALIZE_CRASH)
				__atomic_add_fetch(&sh->crashes_seen, 1,
						   __ATOMIC_RELAXED);
			if (!err && st.state == FDR_STATE_INITIALIZED &&
			    st.flush_state == FDR_FLUSH_FLUSHING)
				__atomic_add_fetch(&sh->stream_flushes_seen, 1,
						   __ATOMIC_RELAXED);
		} else if (pick == OP_REOPEN) {
			/* The release aborts a flush this file began. */
			close(fd);
			fd = fdrt_open();
			err = fd < 0 ? fd : 0;
		} else if (pick == OP_SESSION) {
			close(fd);
			fd = random_open(&seed, &err);
		} else if (pick == OP_INFO) {
			struct fdr_session_info info;

			err = fdrt_session_info(fd, rand_r(&seed) % 5, &info);
			if (err == -ENOENT)
				err = -EBUSY;
		} else {
			err = fdrt_ioctl(fd, cmds[pick]);
		}
		if (err && err != -EBUSY)
			note(&sh->bad_errno, -err);
		if (!err)
			__atomic_add_fetch(&sh->ok[pick], 1, __ATOMIC_RELAXED);
	}
	if (fd >= 0)
		close(fd);
	return NULL;
}

/* Map whatever region exists, take a buffer, scribble, unmap. */
static void *mapper(void *p)
{
	struct shared *sh = p;
	unsigned int seed = (unsigned int)(uintptr_t)&seed, round = 0;
	int fd = fdrt_open();
	int err;

	while (fd >= 0 && !sh->stop) {
		struct fdr_control *c;
		size_t len;

		if (++round % 16 == 0) {
			close(fd);
			fd = random_open(&seed, &err);
			if (err && err != -EBUSY)
				note(&sh->bad_errno, -err);
			if (fd < 0)
				break;
		}

		c = fdrt_map(fd, PROT_READ | PROT_WRITE, &len);
		if (!c) {
			if (errno != ENODEV && errno != EINVAL)
				note(&sh->bad_errno, errno);
			continue;
		}
		/* The kernel's geometry: STATUS, not the (writable) page. */
		if (len > FDR_CONTROL_HEADER_SIZE) {
			struct fdr_buffer_desc *d = fdrt_desc(c, 0);

			if ((char *)(d + 1) <= (char *)c + len) {
				d->owner_pid = getpid();
				__atomic_store_n(&d->state, FDR_BUF_HELD,
						 __ATOMIC_RELEASE);
			}
		}
		munmap(c, len);
	}
	if (fd >= 0)
		close(fd);
	return NULL;
}

/*
 * Write a random parameter: a value it must accept (0) or one it must
 * refuse (EINVAL); anything else is noted.  Never a value that would
 * make the VM's memory run out, and the saved values come back at the
 * end of the run.
 */
static void *param_writer(void *p)
{
	struct shared *sh = p;
	unsigned int seed = (unsigned int)(uintptr_t)&seed;

	while (!sh->stop) {
		const struct stress_param *sp =
			&stress_params[rand_r(&seed) % NR_STRESS_PARAMS];
		int bad = rand_r(&seed) % 4 == 0;
		long long v = bad ? sp->bad[rand_r(&seed) % 3] :
				    sp->good[rand_r(&seed) % 3];
		int err = fdrt_write_param(sp->name, v);

		if (bad && err != -EINVAL)
			note(&sh->bad_errno, err ? -err : ENOTRECOVERABLE);
		else if (!bad && err)
			note(&sh->bad_errno, -err);
		if (!err)
			__atomic_add_fetch(&sh->param_writes, 1,
					   __ATOMIC_RELAXED);
		else
			__atomic_add_fetch(&sh->param_refusals, 1,
					   __ATOMIC_RELAXED);
		usleep(rand_r(&seed) % 2000);
	}
	return NULL;
}

/* A child that holds a buffer until killed. */
static int holder(void *arg)
{
	unsigned int seed = (unsigned int)getpid();
	struct fdr_control *c;
	size_t len;
	int err;
	int fd = random_open(&seed, &err);

	(void)arg;
	if (fd < 0)
		return 1;
	c = fdrt_map(fd, PROT_READ | PROT_WRITE, &len);
	if (c && len >= 2 * 4096) {
		struct fdr_buffer_desc *d = fdrt_desc(c, 0);

		if ((char *)(d + 1) <= (char *)c + len) {
			d->owner_pid = getpid();
			__atomic_store_n(&d->state, FDR_BUF_HELD,
					 __ATOMIC_RELEASE);
		}
	}
	for (;;)
		pause();
}

TEST_F_TIMEOUT(dev, concurrent_everything, 900)
{
	long long saved[NR_STRESS_PARAMS];
	struct shared sh = { 0 };
	pthread_t threads[6];
	struct fdr_status st;
	uint64_t end;
	size_t p;
	int i, kills = 0;

	REQUIRE_DEV();
	for (p = 0; p < NR_STRESS_PARAMS; p++) {
		saved[p] = fdrt_param(stress_params[p].name);
		/* An fdr.ko without the parameter: nothing to write. */
		ASSERT_LE(0, saved[p]) TH_LOG("%s", stress_params[p].name);
	}
	for (i = 0; i < 4; i++)
		ASSERT_EQ(0, pthread_create(&threads[i], NULL, driver, &sh));
	ASSERT_EQ(0, pthread_create(&threads[4], NULL, mapper, &sh));
	ASSERT_EQ(0, pthread_create(&threads[5], NULL, param_writer, &sh));
	end = now_ms() + run_ms();
	while (now_ms() < end) {
		pid_t pid = fdrt_spawn(holder, NULL);

		ASSERT_LT(0, pid);
		usleep(1000 * (rand() % 20));
		kill(pid, (kills & 1) ? SIGKILL : SIGSEGV);
		fdrt_wait(pid);
		kills++;
	}
	sh.stop = 1;
	for (i = 0; i < 6; i++)
		ASSERT_EQ(0, pthread_join(threads[i], NULL));
	for (p = 0; p < NR_STRESS_PARAMS; p++)
		EXPECT_EQ(0, fdrt_write_param(stress_params[p].name, saved[p]));
	TH_LOG("%d ms: %d holders killed; ok: %lu init, %lu finalize, %lu flush_begin, %lu flush_done, %lu flush_abort, %lu force_abort, %lu reopen, %lu reset, %lu status, %lu trigger, %lu session, %lu info; crash finalize seen %lu times, a stream flush before the finalize %lu times",
	       run_ms(), kills, sh.ok[OP_INIT], sh.ok[OP_FINALIZE],
	       sh.ok[OP_FLUSH_BEGIN], sh.ok[OP_FLUSH_DONE],
	       sh.ok[OP_FLUSH_ABORT], sh.ok[OP_FORCE_ABORT], sh.ok[OP_REOPEN],
	       sh.ok[OP_RESET], sh.ok[OP_STATUS], sh.ok[OP_TRIGGER],
	       sh.ok[OP_SESSION], sh.ok[OP_INFO], sh.crashes_seen,
	       sh.stream_flushes_seen);
	TH_LOG("parameters: %lu writes accepted, %lu refused; %lu INITs without the scheduling view",
	       sh.param_writes, sh.param_refusals, sh.sched_refused);
	ASSERT_EQ(0, sh.bad_errno);
	ASSERT_LT(0, sh.param_writes);
	ASSERT_LT(0, sh.param_refusals);
	/* The run really went through the cycle. */
	ASSERT_LT(0, sh.ok[OP_INIT]);
	ASSERT_LT(0, sh.ok[OP_FINALIZE]);
	ASSERT_LT(0, sh.ok[OP_FLUSH_BEGIN]);
	ASSERT_LT(0, sh.ok[OP_RESET]);
	ASSERT_LT(0, sh.ok[OP_TRIGGER]);
	ASSERT_LT(0, sh.ok[OP_SESSION]);
	ASSERT_LT(0, sh.ok[OP_INFO]);
	ASSERT_EQ(0, sh.bad_status);
	ASSERT_EQ(0, fdrt_status(self->fd, &st));
	ASSERT_EQ(0, impossible(&st));
	ASSERT_EQ(0, fdrt_to_uninitialized(self->fd));
}

TEST_HARNESS_MAIN
