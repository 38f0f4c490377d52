// SPDX-License-Identifier: GPL-2.0
/*
 * fdr_poll_test.c - poll() on /dev/fdr: EPOLLIN while a flush is wanted
 * (FINALIZED, NOT_FLUSHING), EPOLLPRI after any state change this file
 * has not seen through STATUS, and waiters woken by a finalize from
 * another thread or process; an epoll or poll() begun before the file
 * was bound to a named session is woken by that session.
 */
#include <errno.h>
#include <poll.h>
#include <pthread.h>
#include <sys/epoll.h>
#include <time.h>
#include <unistd.h>
#include "kselftest_harness.h"
#include "fdr_fixture.h"

static short revents(int fd, short events)
{
	struct pollfd pfd = { .fd = fd, .events = events };

	return poll(&pfd, 1, 0) < 0 ? -1 : pfd.revents;
}

/* STATUS marks the state as seen by this file. */
static void seen(int fd)
{
	struct fdr_status st;

	fdrt_status(fd, &st);
}

TEST_F(dev, poll_mask_rules)
{
	const short both = POLLIN | POLLPRI;

	REQUIRE_DEV();
	seen(self->fd);
	ASSERT_EQ(0, revents(self->fd, both));
	ASSERT_EQ(0, fdrt_init_default(self->fd, 0));
	ASSERT_EQ(POLLPRI, revents(self->fd, both));
	seen(self->fd);
	ASSERT_EQ(0, revents(self->fd, both));
	ASSERT_EQ(0, fdrt_ioctl(self->fd, FDR_IOC_FINALIZE));
	ASSERT_EQ(both, revents(self->fd, both));
	seen(self->fd);
	ASSERT_EQ(POLLIN, revents(self->fd, both));
	ASSERT_EQ(POLLIN | POLLRDNORM, revents(self->fd, POLLIN | POLLRDNORM));
	ASSERT_EQ(0, fdrt_ioctl(self->fd, FDR_IOC_FLUSH_BEGIN));
	ASSERT_EQ(POLLPRI, revents(self->fd, both));
	ASSERT_EQ(0, fdrt_ioctl(self->fd, FDR_IOC_FLUSH_ABORT));
	seen(self->fd);
	/* The flush failed: it is wanted again. */
	ASSERT_EQ(POLLIN, revents(self->fd, both));
	ASSERT_EQ(0, fdrt_ioctl(self->fd, FDR_IOC_FLUSH_BEGIN));
	ASSERT_EQ(0, fdrt_ioctl(self->fd, FDR_IOC_FLUSH_DONE));
	seen(self->fd);
	ASSERT_EQ(0, revents(self->fd, both));
	ASSERT_EQ(0, fdrt_ioctl(self->fd, FDR_IOC_RESET));
	ASSERT_EQ(POLLPRI, revents(self->fd, both));
	seen(self->fd);
	ASSERT_EQ(0, revents(self->fd, both));
}

/* A change made through another file is seen by this one. */
TEST_F(dev, pri_is_per_file)
{
	int other = fdrt_open();

	REQUIRE_DEV();
	ASSERT_LE(0, other);
	seen(self->fd);
	seen(other);
	ASSERT_EQ(0, fdrt_init_default(other, 0));
	seen(other);
	ASSERT_EQ(0, revents(other, POLLPRI));
	ASSERT_EQ(POLLPRI, revents(self->fd, POLLPRI));
	close(other);
}

static uint64_t now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000ull + ts.tv_nsec / 1000000;
}

struct finalizer {
	int fd;
	int delay_ms;
	volatile int done;
};

static void *finalize_later(void *p)
{
	struct finalizer *f = p;

	usleep(f->delay_ms * 1000);
	f->done = 1;
	fdrt_ioctl(f->fd, FDR_IOC_FINALIZE);
	return NULL;
}

TEST_F(dev, poll_wakes_on_finalize_thread)
{
	struct finalizer f = { .delay_ms = 300 };
	struct pollfd pfd = { .events = POLLIN };
	pthread_t t;
	uint64_t start;

	REQUIRE_DEV();
	ASSERT_EQ(0, fdrt_init_default(self->fd, 0));
	f.fd = self->fd;
	pfd.fd = self->fd;
	start = now_ms();
	ASSERT_EQ(0, pthread_create(&t, NULL, finalize_later, &f));
	ASSERT_EQ(1, poll(&pfd, 1, 20000));
	ASSERT_TRUE(f.done);
	ASSERT_EQ(POLLIN, pfd.revents);
	ASSERT_LT(now_ms() - start, 20000);
	ASSERT_EQ(0, pthread_join(t, NULL));
}

static int finalize_child(void *arg)
{
	int fd = fdrt_open();

	(void)arg;
	usleep(300 * 1000);
	return fd < 0 ? 1 : -fdrt_ioctl(fd, FDR_IOC_FINALIZE);
}

TEST_F(dev, epoll_wakes_on_finalize_process)
{
	struct epoll_event ev = { .events = EPOLLIN }, out;
	struct fdr_status st;
	int ep;
	pid_t pid;

	REQUIRE_DEV();
	ASSERT_EQ(0, fdrt_init_default(self->fd, 0));
	ep = epoll_create1(EPOLL_CLOEXEC);
	ASSERT_LE(0, ep);
	ASSERT_EQ(0, epoll_ctl(ep, EPOLL_CTL_ADD, self->fd, &ev));
	ASSERT_EQ(0, epoll_wait(ep, &out, 1, 0));
	pid = fdrt_spawn(finalize_child, NULL);
	ASSERT_LT(0, pid);
	ASSERT_EQ(1, epoll_wait(ep, &out, 1, 20000));
	ASSERT_TRUE(out.events & EPOLLIN);
	ASSERT_EQ(0, fdrt_wait(pid));
	ASSERT_EQ(0, fdrt_status(self->fd, &st));
	ASSERT_EQ(FDR_STATE_FINALIZED, st.state);
	ASSERT_EQ(pid, st.finalize_pid);
	close(ep);
}

/* Attach a second file to @name after a while and FINALIZE there. */
static int finalize_session_child(void *arg)
{
	int fd = fdrt_open();

	usleep(300 * 1000);
	if (fd < 0 ||
	    fdrt_session(fd, FDR_IOC_SESSION_ATTACH, arg, 0, 0))
		return 1;
	return -fdrt_ioctl(fd, FDR_IOC_FINALIZE);
}

/*
 * epoll registered on a file while it still addressed the default
 * session, then the file is bound to a session of its own: that
 * session's FINALIZE (from another process) wakes it, and the default
 * session's changes do not make it report anything.  Before, the epoll
 * entry stayed on the default session's wait queue and never woke.
 */
TEST_F(dev, epoll_before_bind_wakes_for_the_session)
{
	struct epoll_event ev = { .events = EPOLLIN | EPOLLPRI }, out;
	static char name[] = "poll-bind";
	int fd, ep;
	pid_t pid;

	REQUIRE_DEV();
	fd = fdrt_open();
	ASSERT_LE(0, fd);
	ep = epoll_create1(EPOLL_CLOEXEC);
	ASSERT_LE(0, ep);
	ASSERT_EQ(0, epoll_ctl(ep, EPOLL_CTL_ADD, fd, &ev));
	ASSERT_EQ(0, epoll_wait(ep, &out, 1, 0));
	ASSERT_EQ(0, fdrt_session(fd, FDR_IOC_SESSION_CREATE, name, 0, 0));
	ASSERT_EQ(0, fdrt_init(fd, 4096, 1, FDR_INIT_NO_SCHED));
	seen(fd);
	while (epoll_wait(ep, &out, 1, 0) > 0)
		;	/* the bind and the INIT may have woken it: drained */

	/* The default session's cycle is not this file's. */
	ASSERT_EQ(0, fdrt_init(self->fd, 4096, 1, FDR_INIT_NO_SCHED));
	ASSERT_EQ(0, fdrt_ioctl(self->fd, FDR_IOC_FINALIZE));
	ASSERT_EQ(0, epoll_wait(ep, &out, 1, 100));

	pid = fdrt_spawn(finalize_session_child, name);
	ASSERT_LT(0, pid);
	ASSERT_EQ(1, epoll_wait(ep, &out, 1, 20000));
	EXPECT_TRUE(out.events & EPOLLIN);
	EXPECT_TRUE(out.events & EPOLLPRI);
	ASSERT_EQ(0, fdrt_wait(pid));
	ASSERT_EQ(0, fdrt_ioctl(fd, FDR_IOC_RESET));
	close(ep);
	close(fd);
}

struct blocked_poll {
	int fd;
	short revents;
	volatile int done;
};

static void *poll_forever(void *arg)
{
	struct blocked_poll *b = arg;
	struct pollfd pfd = { .fd = b->fd, .events = POLLIN };

	if (poll(&pfd, 1, 20000) == 1)
		b->revents = pfd.revents;
	b->done = 1;
	return NULL;
}

/* A poll() blocked before the bind: the session's FINALIZE ends it. */
TEST_F(dev, poll_blocked_across_bind_wakes)
{
	struct blocked_poll b = { 0 };
	uint64_t start;
	pthread_t t;

	REQUIRE_DEV();
	b.fd = fdrt_open();
	ASSERT_LE(0, b.fd);
	ASSERT_EQ(0, pthread_create(&t, NULL, poll_forever, &b));
	usleep(200 * 1000);
	ASSERT_FALSE(b.done);
	ASSERT_EQ(0, fdrt_session(b.fd, FDR_IOC_SESSION_CREATE, "poll-blocked",
				  0, 0));
	ASSERT_EQ(0, fdrt_init(b.fd, 4096, 1, FDR_INIT_NO_SCHED));
	start = now_ms();
	ASSERT_EQ(0, fdrt_ioctl(b.fd, FDR_IOC_FINALIZE));
	ASSERT_EQ(0, pthread_join(t, NULL));
	EXPECT_EQ(POLLIN, b.revents);
	EXPECT_LT(now_ms() - start, 10000);
	ASSERT_EQ(0, fdrt_ioctl(b.fd, FDR_IOC_RESET));
	close(b.fd);
}

TEST_HARNESS_MAIN
