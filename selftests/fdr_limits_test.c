// SPDX-License-Identifier: GPL-2.0
/*
 * fdr_limits_test.c - the module parameters and the machine's shared
 * resources: every writable parameter is bounded where it is set (a
 * sched_ring_kb whose ring size truncated to 0 used to oops the kernel
 * from the scheduler); one INIT reads each parameter once, so a write
 * during the INIT cannot make it allocate more than it accounted; the
 * scheduling view's 16 slots are shared out per uid, and an INIT that
 * finds none left records without the view (FDR_CTL_SCHED_REFUSED)
 * instead of failing.
 */
#include <errno.h>
#include <grp.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>
#include "kselftest_harness.h"
#include "fdr_fixture.h"

#define UID_GREEDY	1001
#define NR_SLOTS	16

/* Every writable parameter with the bounds abi.md gives it. */
static const struct {
	const char *name;
	long long max;		/* the largest value accepted */
	long long step;		/* the value must be a multiple of it */
} params[] = {
	{ "sched_ring_kb", 65536, 1 },
	{ "buffer_size", 1ll << 30, 4096 },
	{ "buffers_per_cpu", 65536, 1 },
	{ "max_total_mb", 1ll << 20, 1 },
	{ "max_user_mb", 1ll << 20, 1 },
	{ "max_user_sessions", 4096, 1 },
	{ "max_user_sched", NR_SLOTS, 1 },
};

static int sched_supported(int fd)
{
	struct fdr_status st;
	int ok;

	if (fdrt_init(fd, 4096, 1, 0))
		return 0;
	ok = fdrt_status(fd, &st) == 0 && (st.flags & FDR_CTL_SCHED);
	fdrt_to_uninitialized(fd);
	return ok;
}

/*
 * Each parameter refuses 0 and max + step, keeps its value when it
 * refuses, and accepts its maximum; sched_ring_kb also refuses what used
 * to truncate its ring to 0 records (134217728 KiB is 2^32 records) and
 * then oops the kernel from the scheduler at the next INIT.
 */
TEST_F(dev, every_parameter_is_bounded_where_it_is_set)
{
	size_t i, j;

	REQUIRE_DEV();
	for (i = 0; i < sizeof(params) / sizeof(params[0]); i++) {
		const long long bad[] = {
			0, params[i].max + params[i].step,
			!strcmp(params[i].name, "sched_ring_kb") ?
				134217728ll : 0,
			!strcmp(params[i].name, "sched_ring_kb") ?
				4294967295ll : 0,
		};
		long long saved = fdrt_param(params[i].name);
		int at_max;

		ASSERT_LT(0, saved) TH_LOG("%s", params[i].name);
		for (j = 0; j < sizeof(bad) / sizeof(bad[0]); j++) {
			int err = fdrt_write_param(params[i].name, bad[j]);

			/* Put it back before anything can INIT with it. */
			if (!err)
				fdrt_write_param(params[i].name, saved);
			EXPECT_EQ(-EINVAL, err) TH_LOG("%s = %lld accepted",
						       params[i].name, bad[j]);
			EXPECT_EQ(saved, fdrt_param(params[i].name));
		}
		at_max = fdrt_write_param(params[i].name, params[i].max);
		fdrt_write_param(params[i].name, saved);
		EXPECT_EQ(0, at_max) TH_LOG("%s = %lld refused",
					    params[i].name, params[i].max);
	}
}

/* Defaults leave room for others: a uid's share is below the totals. */
TEST_F(dev, per_uid_defaults_are_below_the_totals)
{
	REQUIRE_DEV();
	EXPECT_GT(fdrt_param("max_total_mb"), fdrt_param("max_user_mb"));
	EXPECT_GE(fdrt_param("max_total_mb") / 4, fdrt_param("max_user_mb"));
	EXPECT_GT(NR_SLOTS, fdrt_param("max_user_sched"));
	EXPECT_LE(1, fdrt_param("max_user_sched"));
}

struct flipper {
	volatile int stop;
	unsigned long flips;
};

/* sched_ring_kb back and forth between its smallest and a large ring. */
static void *flip_ring(void *p)
{
	struct flipper *f = p;

	while (!f->stop) {
		fdrt_write_param("sched_ring_kb", (f->flips & 1) ? 1 : 4096);
		f->flips++;
	}
	return NULL;
}

/* The live_bytes SESSION_INFO reports for session @name (0: not listed). */
static uint64_t live_bytes_of(int fd, const char *name)
{
	struct fdr_session_info info;
	uint32_t i;

	for (i = 0; fdrt_session_info(fd, i, &info) == 0; i++)
		if (!strcmp(info.name, name))
			return info.live_bytes;
	return 0;
}

/*
 * What INIT accounted (SESSION_INFO live_bytes) is exactly what it made
 * (STATUS map_size + sched_size), whatever sched_ring_kb does meanwhile:
 * INIT reads it once.  Before, the check, the accounting and the
 * allocation each read it, and a write in between made an area larger
 * (or smaller) than the memory caps had counted.
 */
TEST_F_TIMEOUT(dev, init_reads_each_parameter_once, 300)
{
	long long saved = fdrt_param("sched_ring_kb");
	struct flipper f = { 0 };
	pthread_t t;
	int fd, i, mismatches = 0, inits = 0;

	REQUIRE_DEV();
	if (!sched_supported(self->fd))
		SKIP(return, "no scheduling records on this kernel");
	fd = fdrt_session_new("limits-once");
	ASSERT_LE(0, fd);
	ASSERT_EQ(0, pthread_create(&t, NULL, flip_ring, &f));
	for (i = 0; i < 300 && !mismatches; i++) {
		struct fdr_status st;
		uint64_t live;

		if (fdrt_init(fd, 4096 * 8, 1, 0))
			continue;
		inits++;
		live = live_bytes_of(self->fd, "limits-once");
		if (fdrt_status(fd, &st) == 0 &&
		    live != st.map_size + st.sched_size) {
			TH_LOG("INIT %d accounted %llu bytes, made %llu + %llu",
			       i, (unsigned long long)live,
			       (unsigned long long)st.map_size,
			       (unsigned long long)st.sched_size);
			mismatches++;
		}
		fdrt_to_uninitialized(fd);
	}
	f.stop = 1;
	pthread_join(t, NULL);
	fdrt_write_param("sched_ring_kb", saved);
	close(fd);
	TH_LOG("%d INITs, %lu writes of sched_ring_kb", inits, f.flips);
	ASSERT_LT(0, inits);
	ASSERT_EQ(0, mismatches);
}

/* Drop to @uid, member of nothing. */
static int become(uid_t uid)
{
	gid_t none = uid;

	if (setgroups(0, &none) || setresgid(uid, uid, uid) ||
	    setresuid(uid, uid, uid))
		return -1;
	return 0;
}

struct greedy {
	int fds[NR_SLOTS];
	int ready[2];		/* child -> parent: how many had the view */
	int done[2];		/* parent -> child: let go */
};

/*
 * As uid 1001, on files root opened: 16 sessions, each INITed with the
 * scheduling view asked for.  Reports how many got it, then holds them
 * until the parent is done.
 */
static int greedy_user(void *arg)
{
	struct greedy *g = arg;
	unsigned char with_view = 0, refused = 0, failed = 0;
	char name[32], byte;
	int i;

	close(g->done[1]);
	close(g->ready[0]);
	if (become(UID_GREEDY))
		return 10;
	for (i = 0; i < NR_SLOTS; i++) {
		struct fdr_status st;

		snprintf(name, sizeof(name), "greedy-%d", i);
		if (fdrt_session(g->fds[i], FDR_IOC_SESSION_CREATE, name, 0, 0))
			return 11;
		if (fdrt_init(g->fds[i], 4096, 1, 0) ||
		    fdrt_status(g->fds[i], &st)) {
			failed++;
			continue;
		}
		if (st.flags & FDR_CTL_SCHED)
			with_view++;
		if (st.flags & FDR_CTL_SCHED_REFUSED)
			refused++;
	}
	if (write(g->ready[1], &with_view, 1) != 1 ||
	    write(g->ready[1], &refused, 1) != 1 ||
	    write(g->ready[1], &failed, 1) != 1)
		return 12;
	if (read(g->done[0], &byte, 1) < 0)
		return 13;
	for (i = 0; i < NR_SLOTS; i++)
		fdrt_to_uninitialized(g->fds[i]);
	return 0;
}

/*
 * One uid INITs 16 sessions: it gets its share of the view
 * (max_user_sched), every INIT succeeds (the rest without the view, and
 * saying so), and root's INIT of the default session still records the
 * view.  Before, the uid took all 16 slots and root's INIT failed with
 * ENOSPC.
 */
TEST_F_TIMEOUT(dev, one_uid_cannot_take_every_scheduling_slot, 120)
{
	long long share = fdrt_param("max_user_sched");
	long long saved_sessions = fdrt_param("max_user_sessions");
	unsigned char with_view = 0, refused = 0, failed = 0;
	struct greedy g;
	struct fdr_status st;
	int i, err, status;
	pid_t pid;

	REQUIRE_DEV();
	if (!sched_supported(self->fd))
		SKIP(return, "no scheduling records on this kernel");
	if (share <= 0)
		share = 4;	/* an fdr.ko without the share: the default */
	fdrt_write_param("max_user_sessions", NR_SLOTS);
	for (i = 0; i < NR_SLOTS; i++) {
		g.fds[i] = fdrt_open();
		ASSERT_LE(0, g.fds[i]);
	}
	ASSERT_EQ(0, pipe(g.ready));
	ASSERT_EQ(0, pipe(g.done));
	pid = fdrt_spawn(greedy_user, &g);
	ASSERT_LT(0, pid);
	close(g.ready[1]);
	for (i = 0; i < NR_SLOTS; i++)
		close(g.fds[i]);
	ASSERT_EQ(1, read(g.ready[0], &with_view, 1));
	ASSERT_EQ(1, read(g.ready[0], &refused, 1));
	ASSERT_EQ(1, read(g.ready[0], &failed, 1));

	err = fdrt_init(self->fd, 4096, 1, 0);
	st.flags = 0;
	if (!err)
		fdrt_status(self->fd, &st);
	fdrt_to_uninitialized(self->fd);
	close(g.done[1]);
	status = fdrt_wait(pid);
	fdrt_write_param("max_user_sessions", saved_sessions);

	TH_LOG("uid %d: %u INITs with the view, %u without (refused), %u failed; root's INIT: %d, flags 0x%x",
	       UID_GREEDY, with_view, refused, failed, err, st.flags);
	ASSERT_TRUE(WIFEXITED(status));
	ASSERT_EQ(0, WEXITSTATUS(status));
	EXPECT_EQ(0, failed);
	EXPECT_EQ(share, with_view);
	EXPECT_EQ(NR_SLOTS - share, refused);
	ASSERT_EQ(0, err);
	EXPECT_TRUE(st.flags & FDR_CTL_SCHED);
	EXPECT_FALSE(st.flags & FDR_CTL_SCHED_REFUSED);
}

/*
 * With every slot taken (root is not held to a share), a 17th INIT
 * succeeds without the view: FDR_CTL_SCHED_REFUSED in STATUS and in the
 * control area, no area (sched_size 0, nothing to map past the region),
 * and a slot given back by a FINALIZE serves the next INIT.
 */
TEST_F_TIMEOUT(dev, no_slot_left_inits_without_the_view, 120)
{
	int fds[NR_SLOTS], i, err;
	struct fdr_status st;
	struct fdr_control *c;
	size_t len;
	char name[32];
	void *p;

	REQUIRE_DEV();
	if (!sched_supported(self->fd))
		SKIP(return, "no scheduling records on this kernel");
	for (i = 0; i < NR_SLOTS; i++) {
		snprintf(name, sizeof(name), "slot-%d", i);
		fds[i] = fdrt_session_new(name);
		ASSERT_LE(0, fds[i]);
		ASSERT_EQ(0, fdrt_init(fds[i], 4096, 1, 0));
		ASSERT_EQ(0, fdrt_status(fds[i], &st));
		ASSERT_TRUE(st.flags & FDR_CTL_SCHED);
	}

	err = fdrt_init(self->fd, 4096, 1, 0);
	ASSERT_EQ(0, err) TH_LOG("the 17th INIT: %s", strerror(-err));
	ASSERT_EQ(0, fdrt_status(self->fd, &st));
	EXPECT_EQ(FDR_STATE_INITIALIZED, st.state);
	EXPECT_TRUE(st.flags & FDR_CTL_SCHED_REFUSED);
	EXPECT_FALSE(st.flags & FDR_CTL_SCHED);
	EXPECT_EQ(0, st.sched_size);
	EXPECT_EQ(0, st.sched_offset);
	c = fdrt_map(self->fd, PROT_READ, &len);
	ASSERT_NE(NULL, c);
	EXPECT_EQ(st.flags, c->flags);
	munmap(c, len);
	p = mmap(NULL, 4096, PROT_READ, MAP_SHARED, self->fd, st.map_size);
	EXPECT_EQ(MAP_FAILED, p);
	EXPECT_EQ(EINVAL, errno);
	ASSERT_EQ(0, fdrt_to_uninitialized(self->fd));

	/* A FINALIZE gives its slot back. */
	ASSERT_EQ(0, fdrt_ioctl(fds[0], FDR_IOC_FINALIZE));
	ASSERT_EQ(0, fdrt_init(self->fd, 4096, 1, 0));
	ASSERT_EQ(0, fdrt_status(self->fd, &st));
	EXPECT_TRUE(st.flags & FDR_CTL_SCHED);
	EXPECT_FALSE(st.flags & FDR_CTL_SCHED_REFUSED);
	/* FDR_INIT_NO_SCHED is no refusal: the caller did not ask. */
	ASSERT_EQ(0, fdrt_to_uninitialized(self->fd));
	ASSERT_EQ(0, fdrt_init(self->fd, 4096, 1, FDR_INIT_NO_SCHED));
	ASSERT_EQ(0, fdrt_status(self->fd, &st));
	EXPECT_FALSE(st.flags & (FDR_CTL_SCHED | FDR_CTL_SCHED_REFUSED));
	for (i = 0; i < NR_SLOTS; i++) {
		fdrt_to_uninitialized(fds[i]);
		close(fds[i]);
	}
}

TEST_HARNESS_MAIN
