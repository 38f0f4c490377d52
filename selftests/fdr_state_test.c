// SPDX-License-Identifier: GPL-2.0
/*
 * fdr_state_test.c - the /dev/fdr state machine: every legal and illegal
 * transition, INIT argument checking, STATUS sizes and counters, unknown
 * ioctls, concurrent INIT.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>
#include "kselftest_harness.h"
#include "fdr_fixture.h"

/* What an illegal transition must leave unchanged. */
struct snapshot {
	uint32_t state, flush_state, generation, finalize_reason;
	uint64_t map_size;
};

static int take_snapshot(int fd, struct snapshot *s)
{
	struct fdr_status st;
	int err = fdrt_status(fd, &st);

	s->state = st.state;
	s->flush_state = st.flush_state;
	s->generation = st.generation;
	s->finalize_reason = st.finalize_reason;
	s->map_size = st.map_size;
	return err;
}

#define ASSERT_SAME_SNAPSHOT(a, b) do {					\
	ASSERT_EQ((a).state, (b).state);				\
	ASSERT_EQ((a).flush_state, (b).flush_state);			\
	ASSERT_EQ((a).generation, (b).generation);			\
	ASSERT_EQ((a).finalize_reason, (b).finalize_reason);		\
	ASSERT_EQ((a).map_size, (b).map_size);				\
} while (0)

enum { DO_INIT = 1 };	/* pseudo command: INIT with the defaults */

/* Each command must fail with EBUSY and change nothing. */
static void check_illegal(struct __test_metadata *_metadata, int fd,
			  const unsigned long *cmds, int n)
{
	struct snapshot before, after;
	int i, err;

	for (i = 0; i < n; i++) {
		ASSERT_EQ(0, take_snapshot(fd, &before));
		if (cmds[i] == DO_INIT)
			err = fdrt_init_default(fd, 0);
		else
			err = fdrt_ioctl(fd, cmds[i]);
		EXPECT_EQ(-EBUSY, err) TH_LOG("command #%d (0x%lx)", i, cmds[i]);
		ASSERT_EQ(0, take_snapshot(fd, &after));
		ASSERT_SAME_SNAPSHOT(before, after);
	}
}

#define CHECK_ILLEGAL(fd, ...) do {					\
	const unsigned long cmds_[] = { __VA_ARGS__ };			\
	check_illegal(_metadata, fd, cmds_, sizeof(cmds_) / sizeof(cmds_[0])); \
} while (0)

static uint32_t state_of(int fd)
{
	struct fdr_status st;

	return fdrt_status(fd, &st) ? ~0u : st.state;
}

static uint32_t flush_state_of(int fd)
{
	struct fdr_status st;

	return fdrt_status(fd, &st) ? ~0u : st.flush_state;
}

TEST_F(dev, init_finalize_reset)
{
	struct fdr_status st0, st;

	REQUIRE_DEV();
	ASSERT_EQ(0, fdrt_status(self->fd, &st0));
	ASSERT_EQ(FDR_STATE_UNINITIALIZED, st0.state);
	ASSERT_EQ(0, st0.map_size);

	ASSERT_EQ(0, fdrt_init_default(self->fd, 0));
	ASSERT_EQ(0, fdrt_status(self->fd, &st));
	ASSERT_EQ(FDR_STATE_INITIALIZED, st.state);
	ASSERT_EQ(FDR_FLUSH_NOT_FLUSHING, st.flush_state);
	ASSERT_EQ(st0.generation + 1, st.generation);
	ASSERT_EQ(FDR_FINALIZE_NONE, st.finalize_reason);
	ASSERT_NE(0, st.map_size);

	ASSERT_EQ(0, fdrt_ioctl(self->fd, FDR_IOC_FINALIZE));
	ASSERT_EQ(0, fdrt_status(self->fd, &st));
	ASSERT_EQ(FDR_STATE_FINALIZED, st.state);
	ASSERT_EQ(FDR_FINALIZE_IOCTL, st.finalize_reason);
	ASSERT_EQ(0, st.finalize_signal);
	ASSERT_EQ(getpid(), st.finalize_pid);

	ASSERT_EQ(0, fdrt_ioctl(self->fd, FDR_IOC_RESET));
	ASSERT_EQ(0, fdrt_status(self->fd, &st));
	ASSERT_EQ(FDR_STATE_UNINITIALIZED, st.state);
	ASSERT_EQ(FDR_FINALIZE_NONE, st.finalize_reason);
	ASSERT_EQ(0, st.map_size);
	ASSERT_EQ(st0.generation + 1, st.generation);
}

TEST_F(dev, flush_cycle)
{
	REQUIRE_DEV();
	ASSERT_EQ(0, fdrt_init_default(self->fd, 0));
	ASSERT_EQ(0, fdrt_ioctl(self->fd, FDR_IOC_FINALIZE));
	ASSERT_EQ(0, fdrt_ioctl(self->fd, FDR_IOC_FLUSH_BEGIN));
	ASSERT_EQ(FDR_FLUSH_FLUSHING, flush_state_of(self->fd));
	ASSERT_EQ(0, fdrt_ioctl(self->fd, FDR_IOC_FLUSH_ABORT));
	ASSERT_EQ(FDR_FLUSH_NOT_FLUSHING, flush_state_of(self->fd));
	ASSERT_EQ(0, fdrt_ioctl(self->fd, FDR_IOC_FLUSH_BEGIN));
	ASSERT_EQ(0, fdrt_ioctl(self->fd, FDR_IOC_FLUSH_DONE));
	ASSERT_EQ(FDR_FLUSH_FLUSHED, flush_state_of(self->fd));
	/* A second flush of the same data is allowed. */
	ASSERT_EQ(0, fdrt_ioctl(self->fd, FDR_IOC_FLUSH_BEGIN));
	ASSERT_EQ(0, fdrt_ioctl(self->fd, FDR_IOC_FLUSH_DONE));
	ASSERT_EQ(FDR_STATE_FINALIZED, state_of(self->fd));
	ASSERT_EQ(0, fdrt_ioctl(self->fd, FDR_IOC_RESET));
	ASSERT_EQ(FDR_STATE_UNINITIALIZED, state_of(self->fd));
	ASSERT_EQ(FDR_FLUSH_NOT_FLUSHING, flush_state_of(self->fd));
}

TEST_F(dev, illegal_from_uninitialized)
{
	REQUIRE_DEV();
	CHECK_ILLEGAL(self->fd, FDR_IOC_FINALIZE, FDR_IOC_FLUSH_BEGIN,
		      FDR_IOC_FLUSH_DONE, FDR_IOC_FLUSH_ABORT,
		      FDR_IOC_FLUSH_FORCE_ABORT, FDR_IOC_RESET);
}

TEST_F(dev, illegal_from_initialized)
{
	REQUIRE_DEV();
	ASSERT_EQ(0, fdrt_init_default(self->fd, 0));
	CHECK_ILLEGAL(self->fd, DO_INIT, FDR_IOC_FLUSH_BEGIN,
		      FDR_IOC_FLUSH_DONE, FDR_IOC_FLUSH_ABORT,
		      FDR_IOC_FLUSH_FORCE_ABORT, FDR_IOC_RESET);
}

TEST_F(dev, illegal_from_finalized)
{
	REQUIRE_DEV();
	ASSERT_EQ(0, fdrt_init_default(self->fd, 0));
	ASSERT_EQ(0, fdrt_ioctl(self->fd, FDR_IOC_FINALIZE));
	CHECK_ILLEGAL(self->fd, DO_INIT, FDR_IOC_FINALIZE, FDR_IOC_FLUSH_DONE,
		      FDR_IOC_FLUSH_ABORT, FDR_IOC_FLUSH_FORCE_ABORT);
}

TEST_F(dev, illegal_while_flushing)
{
	REQUIRE_DEV();
	ASSERT_EQ(0, fdrt_init_default(self->fd, 0));
	ASSERT_EQ(0, fdrt_ioctl(self->fd, FDR_IOC_FINALIZE));
	ASSERT_EQ(0, fdrt_ioctl(self->fd, FDR_IOC_FLUSH_BEGIN));
	CHECK_ILLEGAL(self->fd, DO_INIT, FDR_IOC_FINALIZE, FDR_IOC_FLUSH_BEGIN,
		      FDR_IOC_RESET);
}

TEST_F(dev, illegal_from_flushed)
{
	REQUIRE_DEV();
	ASSERT_EQ(0, fdrt_init_default(self->fd, 0));
	ASSERT_EQ(0, fdrt_ioctl(self->fd, FDR_IOC_FINALIZE));
	ASSERT_EQ(0, fdrt_ioctl(self->fd, FDR_IOC_FLUSH_BEGIN));
	ASSERT_EQ(0, fdrt_ioctl(self->fd, FDR_IOC_FLUSH_DONE));
	CHECK_ILLEGAL(self->fd, DO_INIT, FDR_IOC_FINALIZE, FDR_IOC_FLUSH_DONE,
		      FDR_IOC_FLUSH_ABORT, FDR_IOC_FLUSH_FORCE_ABORT);
}

/* A struct fdr_init with room for a tail beyond version 0. */
struct init_ext {
	struct fdr_init base;
	uint64_t tail[2];
};

struct bad_init {
	const char *what;
	uint32_t size;
	uint32_t flags;
	uint64_t buffer_size;
	uint32_t buffers_per_cpu;
	uint32_t reserved;
	uint64_t tail0;
	int err;
};

TEST_F(dev, init_bad_configs)
{
	const long page = sysconf(_SC_PAGESIZE);
	const struct bad_init cases[] = {
		{ "buffer_size 0", 24, 0, 0, 8, 0, 0, EINVAL },
		{ "buffer_size 100", 24, 0, 100, 8, 0, 0, EINVAL },
		{ "buffer_size page+1", 24, 0, page + 1, 8, 0, 0, EINVAL },
		{ "buffer_size page+8", 24, 0, page + 8, 8, 0, 0, EINVAL },
		{ "buffers_per_cpu 0", 24, 0, page, 0, 0, 0, EINVAL },
		{ "unknown flag 1<<3", 24, 1u << 3, page, 8, 0, 0, EINVAL },
		{ "unknown flag 1<<31", 24, 1u << 31, page, 8, 0, 0, EINVAL },
		{ "reserved != 0", 24, 0, page, 8, 1, 0, EINVAL },
		{ "size 0", 0, 0, page, 8, 0, 0, EINVAL },
		{ "size 16", 16, 0, page, 8, 0, 0, EINVAL },
		{ "size 23", 23, 0, page, 8, 0, 0, EINVAL },
		{ "non-zero tail", FDR_INIT_SIZE_VER1 + 8, 0, page, 8, 0, 1,
		  E2BIG },
		{ "size > page", 8192, 0, page, 8, 0, 0, E2BIG },
		{ "buffer_size 1 TiB", 24, 0, 1ull << 40, 1, 0, 0, ENOMEM },
		{ "buffer_size 2^63", 24, 0, 1ull << 63, 1, 0, 0, ENOMEM },
		{ "buffers_per_cpu 2^32-1", 24, 0, page, 0xffffffffu, 0, 0, ENOMEM },
	};
	struct snapshot before, after;
	unsigned int i;

	REQUIRE_DEV();
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const struct bad_init *c = &cases[i];
		/* 8192-byte sizes read past the struct: give them zeros. */
		static char room[8192];
		struct init_ext *cfg = (struct init_ext *)room;

		memset(room, 0, sizeof(room));
		cfg->base.size = c->size;
		cfg->base.flags = c->flags;
		cfg->base.buffer_size = c->buffer_size;
		cfg->base.buffers_per_cpu = c->buffers_per_cpu;
		cfg->base.reserved = c->reserved;
		cfg->tail[0] = c->tail0;
		ASSERT_EQ(0, take_snapshot(self->fd, &before));
		EXPECT_EQ(-1, ioctl(self->fd, FDR_IOC_INIT, cfg))
			TH_LOG("%s was accepted", c->what);
		EXPECT_EQ(c->err, errno) TH_LOG("%s: errno %d, want %d",
						c->what, errno, c->err);
		ASSERT_EQ(0, take_snapshot(self->fd, &after));
		ASSERT_SAME_SNAPSHOT(before, after);
		ASSERT_EQ(FDR_STATE_UNINITIALIZED, after.state);
	}
	/* A bad pointer. */
	EXPECT_EQ(-1, ioctl(self->fd, FDR_IOC_INIT, NULL));
	EXPECT_EQ(EFAULT, errno);
	ASSERT_EQ(FDR_STATE_UNINITIALIZED, state_of(self->fd));
}

TEST_F(dev, init_larger_struct_zero_tail)
{
	struct init_ext cfg = { 0 };
	struct fdr_status st;

	REQUIRE_DEV();
	cfg.base.size = sizeof(cfg);
	cfg.base.buffer_size = sysconf(_SC_PAGESIZE) * 2;
	cfg.base.buffers_per_cpu = 3;
	ASSERT_EQ(0, ioctl(self->fd, FDR_IOC_INIT, &cfg));
	ASSERT_EQ(0, fdrt_status(self->fd, &st));
	ASSERT_EQ(FDR_STATE_INITIALIZED, st.state);
	ASSERT_EQ(cfg.base.buffer_size, st.buffer_size);
	ASSERT_EQ(3, st.buffers_per_cpu);
	ASSERT_EQ(st.nr_cpus * 3, st.nr_buffers);
}

/* max_total_mb bounds the whole region: control area plus buffers. */
TEST_F(dev, init_max_total_limit)
{
	const long page = sysconf(_SC_PAGESIZE);
	long long saved = fdrt_param("max_total_mb");
	uint64_t per_cpu;
	int ncpu, err_over, err_under;

	REQUIRE_DEV();
	ncpu = fdrt_nr_possible_cpus();
	ASSERT_GT(saved, 0);
	ASSERT_GT(ncpu, 0);
	ASSERT_EQ(0, fdrt_write_param("max_total_mb", 1));
	/* Buffers of at least 1 MiB in all leave no room for the control area. */
	per_cpu = ((1u << 20) / ncpu + page - 1) / page * page;
	err_over = fdrt_init(self->fd, per_cpu, 1, FDR_INIT_NO_SCHED);
	err_under = fdrt_init(self->fd, page, 1, FDR_INIT_NO_SCHED);
	ASSERT_EQ(0, fdrt_write_param("max_total_mb", saved));
	ASSERT_EQ(-ENOMEM, err_over);
	ASSERT_EQ(0, err_under);
	ASSERT_EQ(-EINVAL, fdrt_write_param("max_total_mb", 0));
	ASSERT_EQ(saved, fdrt_param("max_total_mb"));
}

/*
 * max_total_mb bounds all regions alive at once: old ones kept by their
 * mappings count until unmapped, so INIT/mmap/RESET loops cannot pin
 * unbounded memory.
 */
TEST_F(dev, max_total_counts_mapped_old_regions)
{
	long long saved = fdrt_param("max_total_mb");
	int ncpu = fdrt_nr_possible_cpus();
	uint64_t per_cpu = (3u << 20) / 8 / ncpu / 4096 * 4096;
	void *maps[3] = { NULL, NULL, NULL };
	size_t lens[3];
	int i, err_third, err_after_unmap;

	REQUIRE_DEV();
	ASSERT_GT(saved, 0);
	ASSERT_LT(0, per_cpu);
	/* Each region is a little over 3/8 MiB: two fit in 1 MiB, three do not. */
	ASSERT_EQ(0, fdrt_write_param("max_total_mb", 1));
	for (i = 0; i < 2; i++) {
		ASSERT_EQ(0, fdrt_init(self->fd, per_cpu, 1, FDR_INIT_NO_SCHED));
		maps[i] = fdrt_map(self->fd, PROT_READ, &lens[i]);
		ASSERT_NE(NULL, maps[i]);
		ASSERT_EQ(0, fdrt_ioctl(self->fd, FDR_IOC_FINALIZE));
		ASSERT_EQ(0, fdrt_ioctl(self->fd, FDR_IOC_RESET));
	}
	err_third = fdrt_init(self->fd, per_cpu, 1, FDR_INIT_NO_SCHED);
	munmap(maps[0], lens[0]);
	err_after_unmap = fdrt_init(self->fd, per_cpu, 1, FDR_INIT_NO_SCHED);
	munmap(maps[1], lens[1]);
	ASSERT_EQ(0, fdrt_write_param("max_total_mb", saved));
	ASSERT_EQ(-ENOMEM, err_third);
	ASSERT_EQ(0, err_after_unmap);
}

TEST_F(dev, status_sizes)
{
	struct {
		struct fdr_status st;
		uint64_t tail[4];
	} big;
	struct fdr_status st;
	uint64_t default_size;

	REQUIRE_DEV();
	ASSERT_EQ(0, fdrt_status(self->fd, &st));
	ASSERT_EQ(FDR_STATUS_SIZE_VER3, st.size);
	ASSERT_EQ(getpagesize(), (int)st.page_size);
	ASSERT_EQ(0, st.descs_offset | st.buffers_offset);	/* no region */
	ASSERT_EQ(fdrt_param("buffer_size"), (long long)st.default_buffer_size);
	ASSERT_EQ(fdrt_param("buffers_per_cpu"),
		  (long long)st.default_buffers_per_cpu);
	ASSERT_EQ(0, st.owner_pid);	/* no region */
	default_size = st.default_buffer_size;

	/* Smaller than version 0: EINVAL, nothing written. */
	memset(&st, 0xa5, sizeof(st));
	st.size = FDR_STATUS_SIZE_VER0 - 1;
	ASSERT_EQ(-1, ioctl(self->fd, FDR_IOC_STATUS, &st));
	ASSERT_EQ(EINVAL, errno);
	ASSERT_EQ(0xa5a5a5a5u, st.state);
	st.size = 0;
	ASSERT_EQ(-1, ioctl(self->fd, FDR_IOC_STATUS, &st));
	ASSERT_EQ(EINVAL, errno);

	/* Larger with a zero tail: filled, size says what the kernel knows. */
	memset(&big, 0, sizeof(big));
	big.st.size = sizeof(big);
	big.st.state = 0x77;
	ASSERT_EQ(0, ioctl(self->fd, FDR_IOC_STATUS, &big));
	ASSERT_EQ(FDR_STATUS_SIZE_VER3, big.st.size);
	ASSERT_EQ(FDR_STATE_UNINITIALIZED, big.st.state);
	ASSERT_EQ(default_size, big.st.default_buffer_size);
	ASSERT_EQ(0, big.tail[0] | big.tail[1] | big.tail[2] | big.tail[3]);

	/* Older callers: exactly their version's bytes, nothing past. */
	memset(&big, 0xa5, sizeof(big));
	big.st.size = FDR_STATUS_SIZE_VER2;
	ASSERT_EQ(0, ioctl(self->fd, FDR_IOC_STATUS, &big));
	ASSERT_EQ(FDR_STATUS_SIZE_VER2, big.st.size);
	ASSERT_EQ(FDR_STATE_UNINITIALIZED, big.st.state);
	ASSERT_EQ(0xa5a5a5a5u, big.st.page_size);
	ASSERT_EQ(0xa5a5a5a5u, (uint32_t)big.st.reserved_v3[2]);
	memset(&big, 0xa5, sizeof(big));
	big.st.size = FDR_STATUS_SIZE_VER1;
	ASSERT_EQ(0, ioctl(self->fd, FDR_IOC_STATUS, &big));
	ASSERT_EQ(FDR_STATUS_SIZE_VER1, big.st.size);
	ASSERT_EQ(FDR_STATE_UNINITIALIZED, big.st.state);
	ASSERT_EQ(0xa5a5a5a5u, (uint32_t)big.st.trigger_ns);
	ASSERT_EQ(0xa5a5a5a5u, (uint32_t)big.st.reserved_v2[1]);
	memset(&big, 0xa5, sizeof(big));
	big.st.size = FDR_STATUS_SIZE_VER0;
	ASSERT_EQ(0, ioctl(self->fd, FDR_IOC_STATUS, &big));
	ASSERT_EQ(FDR_STATUS_SIZE_VER0, big.st.size);
	ASSERT_EQ(0xa5a5a5a5u, (uint32_t)big.st.sched_offset);
	ASSERT_EQ(0xa5a5a5a5u, (uint32_t)big.st.trigger_ns);

	/* Larger with a non-zero tail: E2BIG. */
	big.st.size = sizeof(big);
	big.tail[3] = 1;
	big.st.state = 0x77;
	ASSERT_EQ(-1, ioctl(self->fd, FDR_IOC_STATUS, &big));
	ASSERT_EQ(E2BIG, errno);
	ASSERT_EQ(0x77, big.st.state);

	ASSERT_EQ(-1, ioctl(self->fd, FDR_IOC_STATUS, NULL));
	ASSERT_EQ(EFAULT, errno);
}

/*
 * Counters come from the control area but are checked: recycled never
 * exceeds acquired, reclaimed is the kernel's own, in-use is counted from
 * the descriptors.
 */
TEST_F(dev, status_counters_validated)
{
	struct fdr_control *c;
	struct fdr_status st;
	size_t len;

	REQUIRE_DEV();
	ASSERT_EQ(0, fdrt_init_default(self->fd, 0));
	c = fdrt_map(self->fd, PROT_READ | PROT_WRITE, &len);
	ASSERT_NE(NULL, c);
	c->buffers_acquired = 5;
	c->buffers_recycled = 9;
	c->records_dropped = 3;
	c->buffers_reclaimed = 77;
	fdrt_desc(c, 0)->state = FDR_BUF_HELD;
	fdrt_desc(c, c->nr_buffers - 1)->state = FDR_BUF_HELD;
	fdrt_desc(c, 1)->state = FDR_BUF_RELEASED;
	ASSERT_EQ(0, fdrt_status(self->fd, &st));
	ASSERT_EQ(5, st.buffers_acquired);
	ASSERT_EQ(5, st.buffers_recycled);
	ASSERT_EQ(3, st.records_dropped);
	ASSERT_EQ(0, st.buffers_reclaimed);
	ASSERT_EQ(2, st.buffers_in_use);
	/* Scribbled geometry changes nothing the kernel reports. */
	c->nr_buffers = 0xffffffff;
	c->buffer_size = 1;
	ASSERT_EQ(0, fdrt_status(self->fd, &st));
	ASSERT_EQ(len, st.map_size);
	ASSERT_EQ(st.nr_cpus * st.buffers_per_cpu, st.nr_buffers);
	ASSERT_EQ(0, munmap(c, len));
}

TEST_F(dev, unknown_ioctl_enotty)
{
	uint64_t arg[32] = { 0 };
	const unsigned long cmds[] = {
		_IO(FDR_IOC_MAGIC, 0),
		_IO(FDR_IOC_MAGIC, 9),
		_IO(FDR_IOC_MAGIC, 99),
		_IOW(FDR_IOC_MAGIC, 1, uint64_t),	/* INIT, wrong size */
		_IOR(FDR_IOC_MAGIC, 7, struct fdr_status), /* wrong dir */
		_IO('T', 1),
		TIOCGWINSZ,
	};
	unsigned int i;

	REQUIRE_DEV();
	for (i = 0; i < sizeof(cmds) / sizeof(cmds[0]); i++) {
		EXPECT_EQ(-1, ioctl(self->fd, cmds[i], arg));
		EXPECT_EQ(ENOTTY, errno) TH_LOG("cmd 0x%lx", cmds[i]);
	}
	ASSERT_EQ(FDR_STATE_UNINITIALIZED, state_of(self->fd));
}

/* Racing INITs from several processes: exactly one wins. */
static int init_child(void *arg)
{
	int fd = fdrt_open();
	int err;

	(void)arg;
	if (fd < 0)
		return 100;
	err = fdrt_init_default(fd, 0);
	return err == 0 ? 0 : err == -EBUSY ? 1 : 101;
}

TEST_F(dev, concurrent_init_one_wins)
{
	pid_t pids[6];
	int i, wins = 0, busy = 0;

	REQUIRE_DEV();
	for (i = 0; i < 6; i++)
		ASSERT_LT(0, pids[i] = fdrt_spawn(init_child, NULL));
	for (i = 0; i < 6; i++) {
		int status = fdrt_wait(pids[i]);

		ASSERT_TRUE(WIFEXITED(status));
		wins += WEXITSTATUS(status) == 0;
		busy += WEXITSTATUS(status) == 1;
	}
	ASSERT_EQ(1, wins);
	ASSERT_EQ(5, busy);
	ASSERT_EQ(FDR_STATE_INITIALIZED, state_of(self->fd));
}

/* The argument-less commands never look at their argument. */
TEST_F(dev, argless_commands_ignore_argument)
{
	void *junk = (void *)1;

	REQUIRE_DEV();
	ASSERT_EQ(0, fdrt_init_default(self->fd, 0));
	ASSERT_EQ(0, ioctl(self->fd, FDR_IOC_FINALIZE, junk));
	ASSERT_EQ(0, ioctl(self->fd, FDR_IOC_FLUSH_BEGIN, junk));
	ASSERT_EQ(0, ioctl(self->fd, FDR_IOC_FLUSH_ABORT, junk));
	ASSERT_EQ(0, ioctl(self->fd, FDR_IOC_FLUSH_BEGIN, junk));
	ASSERT_EQ(0, ioctl(self->fd, FDR_IOC_FLUSH_DONE, junk));
	ASSERT_EQ(0, ioctl(self->fd, FDR_IOC_FLUSH_BEGIN, junk));
	ASSERT_EQ(0, ioctl(self->fd, FDR_IOC_FLUSH_FORCE_ABORT, junk));
	ASSERT_EQ(0, ioctl(self->fd, FDR_IOC_RESET, junk));
	ASSERT_EQ(FDR_STATE_UNINITIALIZED, state_of(self->fd));
}

TEST_HARNESS_MAIN
