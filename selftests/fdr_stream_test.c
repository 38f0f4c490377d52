// SPDX-License-Identifier: GPL-2.0
/*
 * fdr_stream_test.c - streaming mode (FDR_INIT_STREAM): the region flag,
 * the stream flush begun while INITIALIZED and kept through the finalize
 * (FINALIZE, TRIGGER, a crash), how it ends before and after the
 * finalize, EPOLLIN for a stream without a flusher, and STATUS's sum of
 * the per-CPU drop counters.  Flight-recorder regions are checked next
 * to each rule, so a rule applied to every region fails too.
 */
#include <errno.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>
#include "kselftest_harness.h"
#include "fdr_fixture.h"

#define STREAM	(FDR_INIT_STREAM | FDR_INIT_NO_SCHED)

static struct fdr_status status_of(int fd)
{
	struct fdr_status st;

	if (fdrt_status(fd, &st))
		memset(&st, 0xff, sizeof(st));	/* matches no expectation */
	return st;
}

/* INIT with a small geometry: two one-page buffers per CPU. */
static int init_small(int fd, uint32_t flags)
{
	return fdrt_init(fd, sysconf(_SC_PAGESIZE), 2, flags);
}

#define ASSERT_STATES(fd, state_, flush_) do {				\
	struct fdr_status st_ = status_of(fd);				\
	ASSERT_EQ(state_, st_.state);					\
	ASSERT_EQ(flush_, st_.flush_state);				\
} while (0)

/* poll(POLLIN) without waiting: 1 if a flush is wanted, else 0. */
static int pollin_now(int fd)
{
	struct pollfd pfd = { .fd = fd, .events = POLLIN };
	int n = poll(&pfd, 1, 0);

	return n < 0 ? -errno : n == 1 && (pfd.revents & POLLIN);
}

TEST_F(dev, init_sets_the_stream_flag)
{
	struct fdr_control *c;
	struct fdr_status st;
	size_t len;

	REQUIRE_DEV();
	ASSERT_EQ(0, init_small(self->fd, STREAM));
	st = status_of(self->fd);
	ASSERT_EQ(FDR_STATE_INITIALIZED, st.state);
	ASSERT_EQ(FDR_CTL_STREAM, st.flags & FDR_CTL_STREAM);
	c = fdrt_map(self->fd, PROT_READ, &len);
	ASSERT_NE(NULL, c);
	ASSERT_EQ(FDR_CTL_STREAM, c->flags & FDR_CTL_STREAM);
	ASSERT_EQ(0, munmap(c, len));

	/* Only asked for: a default INIT is a flight recorder. */
	ASSERT_EQ(0, fdrt_to_uninitialized(self->fd));
	ASSERT_EQ(0, init_small(self->fd, FDR_INIT_NO_SCHED));
	st = status_of(self->fd);
	ASSERT_EQ(0, st.flags & FDR_CTL_STREAM);
	c = fdrt_map(self->fd, PROT_READ, &len);
	ASSERT_NE(NULL, c);
	ASSERT_EQ(0, c->flags & FDR_CTL_STREAM);
	ASSERT_EQ(0, munmap(c, len));

	/* With the scheduling area too (no FDR_INIT_NO_SCHED). */
	ASSERT_EQ(0, fdrt_to_uninitialized(self->fd));
	ASSERT_EQ(0, init_small(self->fd, FDR_INIT_STREAM));
	ASSERT_EQ(FDR_CTL_STREAM, status_of(self->fd).flags & FDR_CTL_STREAM);
}

TEST_F(dev, begin_while_initialized_only_for_a_stream)
{
	struct fdr_control *c;
	struct fdr_status st;
	size_t len;

	REQUIRE_DEV();
	/* Flight recorder: EBUSY, nothing changed. */
	ASSERT_EQ(0, init_small(self->fd, FDR_INIT_NO_SCHED));
	ASSERT_EQ(-EBUSY, fdrt_ioctl(self->fd, FDR_IOC_FLUSH_BEGIN));
	ASSERT_STATES(self->fd, FDR_STATE_INITIALIZED, FDR_FLUSH_NOT_FLUSHING);

	/* Stream: FLUSHING, still INITIALIZED, in the control area too. */
	ASSERT_EQ(0, fdrt_to_uninitialized(self->fd));
	ASSERT_EQ(0, init_small(self->fd, STREAM));
	c = fdrt_map(self->fd, PROT_READ, &len);
	ASSERT_NE(NULL, c);
	ASSERT_EQ(0, fdrt_ioctl(self->fd, FDR_IOC_FLUSH_BEGIN));
	st = status_of(self->fd);
	ASSERT_EQ(FDR_STATE_INITIALIZED, st.state);
	ASSERT_EQ(FDR_FLUSH_FLUSHING, st.flush_state);
	ASSERT_EQ(FDR_FINALIZE_NONE, st.finalize_reason);
	ASSERT_EQ(FDR_STATE_INITIALIZED, c->state);
	ASSERT_EQ(FDR_FLUSH_FLUSHING, c->flush_state);
	ASSERT_EQ(0, munmap(c, len));

	/* The next region, a flight recorder, has no stream flush. */
	ASSERT_EQ(0, fdrt_to_uninitialized(self->fd));
	ASSERT_EQ(0, init_small(self->fd, FDR_INIT_NO_SCHED));
	ASSERT_EQ(-EBUSY, fdrt_ioctl(self->fd, FDR_IOC_FLUSH_BEGIN));
	ASSERT_STATES(self->fd, FDR_STATE_INITIALIZED, FDR_FLUSH_NOT_FLUSHING);
}

TEST_F(dev, one_stream_flusher)
{
	int other;

	REQUIRE_DEV();
	ASSERT_EQ(0, init_small(self->fd, STREAM));
	other = fdrt_open();
	ASSERT_LE(0, other);
	ASSERT_EQ(0, fdrt_ioctl(self->fd, FDR_IOC_FLUSH_BEGIN));
	ASSERT_EQ(-EBUSY, fdrt_ioctl(other, FDR_IOC_FLUSH_BEGIN));
	ASSERT_EQ(-EBUSY, fdrt_ioctl(self->fd, FDR_IOC_FLUSH_BEGIN));
	ASSERT_STATES(self->fd, FDR_STATE_INITIALIZED, FDR_FLUSH_FLUSHING);
	/* The owner is still self->fd: other cannot end it. */
	ASSERT_EQ(-EBUSY, fdrt_ioctl(other, FDR_IOC_FLUSH_ABORT));
	ASSERT_EQ(0, fdrt_ioctl(self->fd, FDR_IOC_FLUSH_ABORT));
	close(other);
}

TEST_F(dev, done_needs_the_finalize)
{
	REQUIRE_DEV();
	ASSERT_EQ(0, init_small(self->fd, STREAM));
	ASSERT_EQ(0, fdrt_ioctl(self->fd, FDR_IOC_FLUSH_BEGIN));
	ASSERT_EQ(-EBUSY, fdrt_ioctl(self->fd, FDR_IOC_FLUSH_DONE));
	ASSERT_STATES(self->fd, FDR_STATE_INITIALIZED, FDR_FLUSH_FLUSHING);
	/* Nor is RESET possible before the finalize. */
	ASSERT_EQ(-EBUSY, fdrt_ioctl(self->fd, FDR_IOC_RESET));
	ASSERT_STATES(self->fd, FDR_STATE_INITIALIZED, FDR_FLUSH_FLUSHING);
}

TEST_F(dev, finalize_keeps_the_stream_flush)
{
	struct fdr_control *c;
	struct fdr_status st;
	size_t len;
	int other;

	REQUIRE_DEV();
	ASSERT_EQ(0, init_small(self->fd, STREAM));
	c = fdrt_map(self->fd, PROT_READ, &len);
	ASSERT_NE(NULL, c);
	other = fdrt_open();
	ASSERT_LE(0, other);
	ASSERT_EQ(0, fdrt_ioctl(self->fd, FDR_IOC_FLUSH_BEGIN));
	/* Anyone may finalize; the flush stays, and stays self->fd's. */
	ASSERT_EQ(0, fdrt_ioctl(other, FDR_IOC_FINALIZE));
	st = status_of(self->fd);
	ASSERT_EQ(FDR_STATE_FINALIZED, st.state);
	ASSERT_EQ(FDR_FLUSH_FLUSHING, st.flush_state);
	ASSERT_EQ(FDR_FINALIZE_IOCTL, st.finalize_reason);
	ASSERT_EQ(FDR_STATE_FINALIZED, c->state);
	ASSERT_EQ(FDR_FLUSH_FLUSHING, c->flush_state);
	ASSERT_EQ(-EBUSY, fdrt_ioctl(other, FDR_IOC_FLUSH_BEGIN));
	ASSERT_EQ(-EBUSY, fdrt_ioctl(other, FDR_IOC_FLUSH_DONE));
	ASSERT_EQ(-EBUSY, fdrt_ioctl(other, FDR_IOC_FLUSH_ABORT));
	ASSERT_EQ(-EBUSY, fdrt_ioctl(self->fd, FDR_IOC_RESET));
	ASSERT_STATES(self->fd, FDR_STATE_FINALIZED, FDR_FLUSH_FLUSHING);
	ASSERT_EQ(0, pollin_now(self->fd));
	/* The owner ends it. */
	ASSERT_EQ(0, fdrt_ioctl(self->fd, FDR_IOC_FLUSH_DONE));
	ASSERT_STATES(self->fd, FDR_STATE_FINALIZED, FDR_FLUSH_FLUSHED);
	ASSERT_EQ(FDR_FLUSH_FLUSHED, c->flush_state);
	ASSERT_EQ(0, fdrt_ioctl(self->fd, FDR_IOC_RESET));
	ASSERT_STATES(self->fd, FDR_STATE_UNINITIALIZED, FDR_FLUSH_NOT_FLUSHING);
	ASSERT_EQ(0, munmap(c, len));
	close(other);
}

TEST_F(dev, release_ends_the_stream_flush)
{
	int other, copy;

	REQUIRE_DEV();
	ASSERT_EQ(0, init_small(self->fd, STREAM));
	other = fdrt_open();
	ASSERT_LE(0, other);
	copy = dup(other);
	ASSERT_LE(0, copy);
	ASSERT_EQ(0, fdrt_ioctl(other, FDR_IOC_FLUSH_BEGIN));
	ASSERT_EQ(-EBUSY, fdrt_ioctl(self->fd, FDR_IOC_FLUSH_DONE));
	ASSERT_EQ(-EBUSY, fdrt_ioctl(self->fd, FDR_IOC_FLUSH_ABORT));
	/* One descriptor left: the file lives, the flush goes on. */
	ASSERT_EQ(0, close(other));
	ASSERT_STATES(self->fd, FDR_STATE_INITIALIZED, FDR_FLUSH_FLUSHING);
	ASSERT_EQ(0, pollin_now(self->fd));
	/* The last one: NOT_FLUSHING, still INITIALIZED, a flusher wanted. */
	ASSERT_EQ(0, close(copy));
	ASSERT_STATES(self->fd, FDR_STATE_INITIALIZED, FDR_FLUSH_NOT_FLUSHING);
	ASSERT_EQ(1, pollin_now(self->fd));
	ASSERT_EQ(0, fdrt_ioctl(self->fd, FDR_IOC_FLUSH_BEGIN));
	ASSERT_STATES(self->fd, FDR_STATE_INITIALIZED, FDR_FLUSH_FLUSHING);
}

TEST_F(dev, abort_while_initialized)
{
	int other;

	REQUIRE_DEV();
	ASSERT_EQ(0, init_small(self->fd, STREAM));
	other = fdrt_open();
	ASSERT_LE(0, other);
	ASSERT_EQ(0, fdrt_ioctl(self->fd, FDR_IOC_FLUSH_BEGIN));
	ASSERT_EQ(0, fdrt_ioctl(self->fd, FDR_IOC_FLUSH_ABORT));
	ASSERT_STATES(self->fd, FDR_STATE_INITIALIZED, FDR_FLUSH_NOT_FLUSHING);
	/* Anyone may begin it again; the old owner has no say any more. */
	ASSERT_EQ(0, fdrt_ioctl(other, FDR_IOC_FLUSH_BEGIN));
	ASSERT_EQ(-EBUSY, fdrt_ioctl(self->fd, FDR_IOC_FLUSH_ABORT));
	ASSERT_STATES(self->fd, FDR_STATE_INITIALIZED, FDR_FLUSH_FLUSHING);
	/* Root ends it whoever began it (tests run as root). */
	ASSERT_EQ(0, fdrt_ioctl(self->fd, FDR_IOC_FLUSH_FORCE_ABORT));
	ASSERT_STATES(self->fd, FDR_STATE_INITIALIZED, FDR_FLUSH_NOT_FLUSHING);
	ASSERT_EQ(-EBUSY, fdrt_ioctl(self->fd, FDR_IOC_FLUSH_FORCE_ABORT));
	ASSERT_EQ(-EBUSY, fdrt_ioctl(other, FDR_IOC_FLUSH_ABORT));
	ASSERT_EQ(0, fdrt_ioctl(self->fd, FDR_IOC_FLUSH_BEGIN));
	close(other);
}

TEST_F(dev, trigger_keeps_the_stream_flush)
{
	struct fdr_status st;

	REQUIRE_DEV();
	ASSERT_EQ(0, init_small(self->fd, STREAM));
	ASSERT_EQ(0, fdrt_ioctl(self->fd, FDR_IOC_FLUSH_BEGIN));
	ASSERT_EQ(0, fdrt_trigger(self->fd, FDR_TRIGGER_BY_HAND, 0, 0));
	st = status_of(self->fd);
	ASSERT_EQ(FDR_STATE_FINALIZED, st.state);
	ASSERT_EQ(FDR_FINALIZE_TRIGGER, st.finalize_reason);
	ASSERT_EQ(FDR_FLUSH_FLUSHING, st.flush_state);
	ASSERT_EQ(1, st.triggers_fired);
	ASSERT_EQ(-EBUSY, fdrt_ioctl(self->fd, FDR_IOC_RESET));
	ASSERT_EQ(0, fdrt_ioctl(self->fd, FDR_IOC_FLUSH_DONE));
	ASSERT_STATES(self->fd, FDR_STATE_FINALIZED, FDR_FLUSH_FLUSHED);
	ASSERT_EQ(0, fdrt_ioctl(self->fd, FDR_IOC_RESET));
}

/* A writer: holds buffer 0, says so on @arg's pipe, waits to be killed. */
static int held_writer(void *arg)
{
	const struct rlimit zero = { 0, 0 };
	int *sync = arg;
	struct fdr_buffer_desc *d;
	struct fdr_control *c;
	uint32_t expect = FDR_BUF_FREE;
	size_t len;
	int fd = fdrt_open();

	setrlimit(RLIMIT_CORE, &zero);
	if (fd < 0)
		return 10;
	c = fdrt_map(fd, PROT_READ | PROT_WRITE, &len);
	if (!c)
		return 11;
	d = fdrt_desc(c, 0);
	if (!__atomic_compare_exchange_n(&d->state, &expect, FDR_BUF_HELD, 0,
					 __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE))
		return 12;
	d->owner_tid = gettid();
	d->owner_pid = getpid();
	d->generation = c->generation;
	memset((char *)c + d->offset, 0x5a, 64);
	__atomic_store_n(&d->extents, 64, __ATOMIC_RELEASE);
	if (write(sync[1], "r", 1) != 1)
		return 13;
	pause();
	return 14;
}

TEST_F(dev, crash_keeps_the_stream_flush)
{
	struct fdr_control *c;
	struct fdr_status st;
	int sync[2], status;
	size_t len;
	char byte;
	pid_t pid;

	REQUIRE_DEV();
	ASSERT_EQ(0, init_small(self->fd, STREAM));
	st = status_of(self->fd);
	if (!(st.flags & FDR_CTL_CRASH_FINALIZE))
		SKIP(return, "crash_finalize=0");
	c = fdrt_map(self->fd, PROT_READ, &len);
	ASSERT_NE(NULL, c);
	ASSERT_EQ(0, fdrt_ioctl(self->fd, FDR_IOC_FLUSH_BEGIN));
	ASSERT_EQ(0, pipe(sync));
	pid = fdrt_spawn(held_writer, sync);
	ASSERT_LT(0, pid);
	close(sync[1]);
	ASSERT_EQ(1, read(sync[0], &byte, 1));
	close(sync[0]);
	ASSERT_EQ(FDR_BUF_HELD, fdrt_desc(c, 0)->state);
	ASSERT_EQ(0, kill(pid, SIGKILL));
	status = fdrt_wait(pid);
	ASSERT_TRUE(WIFSIGNALED(status));
	st = status_of(self->fd);
	ASSERT_EQ(FDR_STATE_FINALIZED, st.state);
	ASSERT_EQ(FDR_FINALIZE_CRASH, st.finalize_reason);
	ASSERT_EQ(SIGKILL, st.finalize_signal);
	ASSERT_EQ(FDR_FLUSH_FLUSHING, st.flush_state);
	/* Its committed data is "to be written", extents kept. */
	ASSERT_EQ(FDR_BUF_RELEASED, fdrt_desc(c, 0)->state);
	ASSERT_EQ(64, fdrt_desc(c, 0)->extents);
	ASSERT_EQ(1, st.buffers_reclaimed);
	ASSERT_EQ(0, fdrt_ioctl(self->fd, FDR_IOC_FLUSH_DONE));
	ASSERT_STATES(self->fd, FDR_STATE_FINALIZED, FDR_FLUSH_FLUSHED);
	ASSERT_EQ(0, munmap(c, len));
}

TEST_F(dev, poll_wants_a_stream_flusher)
{
	int other;

	REQUIRE_DEV();
	/* A flight recorder wants no flush before the finalize. */
	ASSERT_EQ(0, init_small(self->fd, FDR_INIT_NO_SCHED));
	ASSERT_EQ(0, pollin_now(self->fd));
	ASSERT_EQ(0, fdrt_to_uninitialized(self->fd));

	ASSERT_EQ(0, init_small(self->fd, STREAM));
	ASSERT_EQ(1, pollin_now(self->fd));
	other = fdrt_open();
	ASSERT_LE(0, other);
	ASSERT_EQ(1, pollin_now(other));
	ASSERT_EQ(0, fdrt_ioctl(other, FDR_IOC_FLUSH_BEGIN));
	ASSERT_EQ(0, pollin_now(self->fd));
	ASSERT_EQ(0, fdrt_ioctl(other, FDR_IOC_FLUSH_ABORT));
	ASSERT_EQ(1, pollin_now(self->fd));
	ASSERT_EQ(0, fdrt_ioctl(other, FDR_IOC_FLUSH_BEGIN));
	/* Finalized while flushing: still no flusher wanted. */
	ASSERT_EQ(0, fdrt_ioctl(self->fd, FDR_IOC_FINALIZE));
	ASSERT_EQ(0, pollin_now(self->fd));
	ASSERT_EQ(0, fdrt_ioctl(other, FDR_IOC_FLUSH_DONE));
	ASSERT_EQ(0, pollin_now(self->fd));
	close(other);

	/* After RESET the stream is gone: the next flight recorder is quiet. */
	ASSERT_EQ(0, fdrt_ioctl(self->fd, FDR_IOC_RESET));
	ASSERT_EQ(0, pollin_now(self->fd));
	ASSERT_EQ(0, init_small(self->fd, FDR_INIT_NO_SCHED));
	ASSERT_EQ(0, pollin_now(self->fd));
	/* And a finalized stream nobody flushed wants one, as ever. */
	ASSERT_EQ(0, fdrt_to_uninitialized(self->fd));
	ASSERT_EQ(0, init_small(self->fd, STREAM));
	ASSERT_EQ(0, fdrt_ioctl(self->fd, FDR_IOC_FINALIZE));
	ASSERT_EQ(1, pollin_now(self->fd));
}

struct closer {
	int fd;
	int ms;
};

static void *close_later(void *arg)
{
	struct closer *cl = arg;

	usleep(cl->ms * 1000);
	close(cl->fd);
	return NULL;
}

/* The release of the stream flusher's file wakes a blocked poller. */
TEST_F(dev, poll_wakes_when_the_flusher_goes)
{
	struct pollfd pfd = { .fd = self->fd, .events = POLLIN };
	struct closer cl = { .ms = 100 };
	pthread_t t;

	REQUIRE_DEV();
	ASSERT_EQ(0, init_small(self->fd, STREAM));
	cl.fd = fdrt_open();
	ASSERT_LE(0, cl.fd);
	ASSERT_EQ(0, fdrt_ioctl(cl.fd, FDR_IOC_FLUSH_BEGIN));
	ASSERT_EQ(0, pthread_create(&t, NULL, close_later, &cl));
	ASSERT_EQ(1, poll(&pfd, 1, 10000));
	ASSERT_TRUE(pfd.revents & POLLIN);
	ASSERT_EQ(0, pthread_join(t, NULL));
	ASSERT_STATES(self->fd, FDR_STATE_INITIALIZED, FDR_FLUSH_NOT_FLUSHING);
}

/* Writes known drop counts into the control area; checks STATUS's sum. */
static void check_drop_sum(struct __test_metadata *_metadata, int fd,
			   uint32_t init_flags)
{
	struct fdr_control *c;
	uint64_t want;
	uint32_t cpu;
	size_t len;

	ASSERT_EQ(0, init_small(fd, init_flags));
	c = fdrt_map(fd, PROT_READ | PROT_WRITE, &len);
	ASSERT_NE(NULL, c);
	ASSERT_EQ(0, status_of(fd).records_dropped);

	/* The control counter alone. */
	c->records_dropped = 1000;
	ASSERT_EQ(1000, status_of(fd).records_dropped);
	/* Each ring's counter counts, the last CPU's too. */
	want = 1000;
	for (cpu = 0; cpu < c->nr_cpus; cpu++) {
		fdrt_ring(c, cpu)->records_dropped = 3 + 7 * (uint64_t)cpu;
		want += 3 + 7 * (uint64_t)cpu;
	}
	ASSERT_EQ(want, status_of(fd).records_dropped);
	fdrt_ring(c, c->nr_cpus - 1)->records_dropped += 11;
	ASSERT_EQ(want + 11, status_of(fd).records_dropped);
	/* Without the control counter. */
	c->records_dropped = 0;
	ASSERT_EQ(want + 11 - 1000, status_of(fd).records_dropped);
	/* Scribbled values: the sum wraps, nothing else happens. */
	for (cpu = 0; cpu < c->nr_cpus; cpu++)
		fdrt_ring(c, cpu)->records_dropped = 0;
	c->records_dropped = UINT64_MAX;
	fdrt_ring(c, 0)->records_dropped = 2;
	ASSERT_EQ(1, status_of(fd).records_dropped);
	ASSERT_EQ(0, munmap(c, len));
	ASSERT_EQ(0, fdrt_to_uninitialized(fd));
}

TEST_F(dev, status_sums_the_drop_counters)
{
	REQUIRE_DEV();
	check_drop_sum(_metadata, self->fd, STREAM);
	/* The counters are the ABI's, not only a stream's. */
	check_drop_sum(_metadata, self->fd, FDR_INIT_NO_SCHED);
}

TEST_HARNESS_MAIN
