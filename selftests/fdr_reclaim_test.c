// SPDX-License-Identifier: GPL-2.0
/*
 * fdr_reclaim_test.c - buffers of processes that are gone, and the crash
 * auto-finalize: a writer's HELD buffers become RELEASED (extents kept)
 * when it exits, dies or execs; a death by signal finalizes the region
 * unless crash finalize was turned off.  Whatever task drops the last
 * reference to a writer's address space, the reclaim and the finalize
 * are the writer's.
 */
#include <errno.h>
#include <poll.h>
#include <sched.h>
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>
#include "kselftest_harness.h"
#include "fdr_fixture.h"

/* What a child writer does after marking its buffer HELD. */
enum child_end {
	END_EXIT,		/* exit(0) with fd and mapping */
	END_CLOSE_EXIT,		/* close the fd, keep the mapping, exit(0) */
	END_SEGV,		/* dereference NULL */
	END_ABORT,		/* abort() */
	END_WAIT,		/* block on the pipe until the parent acts */
	END_EXEC,		/* exec a program that waits on the pipe */
	END_SIBLING,		/* close the fd, clone(CLONE_VM) a sibling
				 * that shares the mapping, wait to be killed */
};

struct child_plan {
	enum child_end end;
	uint32_t desc;		/* descriptor to take */
	uint64_t extents;	/* committed bytes to leave behind */
	int prot;		/* mapping protection */
	int sync[2];		/* child -> parent: ready; parent -> child: go */
	int go[2];
	/* END_SIBLING: its pid to the parent; it waits to be killed */
	int sibling_pid[2];
	int sibling_killed;
};

/*
 * END_SIBLING's CLONE_VM sibling: a process of its own sharing the
 * writer's address space, as vfork() and posix_spawn() make one.  It
 * ends when the parent says (go), or is killed.
 */
static int sibling_of_writer(void *arg)
{
	struct child_plan *plan = arg;
	char byte;

	while (plan->sibling_killed)
		pause();
	return read(plan->go[0], &byte, 1) == 1 ? 0 : 1;
}

static int start_sibling(struct child_plan *plan)
{
	size_t stack_size = 256 * 1024;
	char *stack = mmap(NULL, stack_size, PROT_READ | PROT_WRITE,
			   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	pid_t pid;

	if (stack == MAP_FAILED)
		return -1;
	pid = clone(sibling_of_writer, stack + stack_size, CLONE_VM | SIGCHLD,
		    plan);
	if (pid < 0 || write(plan->sibling_pid[1], &pid, sizeof(pid)) !=
		       sizeof(pid))
		return -1;
	return 0;
}

static void no_core_dumps(void)
{
	const struct rlimit zero = { 0, 0 };

	setrlimit(RLIMIT_CORE, &zero);
}

/* Take a buffer as a writer does (CAS, owner, extents), then end. */
static int child_writer(void *arg)
{
	struct child_plan *plan = arg;
	struct fdr_buffer_desc *d;
	struct fdr_control *c;
	uint32_t expect = FDR_BUF_FREE;
	size_t len;
	char byte;
	int fd = fdrt_open();

	no_core_dumps();
	if (fd < 0)
		return 10;
	c = fdrt_map(fd, plan->prot ? plan->prot : PROT_READ | PROT_WRITE,
		     &len);
	if (!c)
		return 11;
	if (plan->prot != PROT_READ) {
		d = fdrt_desc(c, plan->desc);
		if (!__atomic_compare_exchange_n(&d->state, &expect,
						 FDR_BUF_HELD, 0,
						 __ATOMIC_ACQ_REL,
						 __ATOMIC_ACQUIRE))
			return 12;
		d->owner_tid = gettid();
		d->owner_pid = getpid();
		d->generation = c->generation;
		memset((char *)c + d->offset, 0x5a, plan->extents);
		__atomic_store_n(&d->extents, plan->extents, __ATOMIC_RELEASE);
	}
	/* Only the mapping is left: no file release can reclaim for us. */
	if (plan->end == END_CLOSE_EXIT || plan->end == END_SIBLING)
		close(fd);
	if (plan->end == END_SIBLING && start_sibling(plan))
		return 17;
	if (write(plan->sync[1], "r", 1) != 1)
		return 13;
	switch (plan->end) {
	case END_SEGV:
		*(volatile int *)NULL = 1;
		return 14;
	case END_ABORT:
		abort();
	case END_WAIT:
		return read(plan->go[0], &byte, 1) == 1 ? 0 : 15;
	case END_SIBLING:
		for (;;)
			pause();
	case END_EXEC: {
		char fdarg[16];

		snprintf(fdarg, sizeof(fdarg), "%d", plan->go[0]);
		/* busybox sh: wait for the parent's byte, then exit. */
		execl("/bin/sh", "sh", "-c", "read -r x <&$0", fdarg,
		      (char *)NULL);
		return 16;
	}
	default:
		return 0;
	}
}

static pid_t start_child(struct __test_metadata *_metadata,
			 struct child_plan *plan)
{
	char byte;
	pid_t pid;

	ASSERT_EQ(0, pipe(plan->sync));
	ASSERT_EQ(0, pipe(plan->go));
	pid = fdrt_spawn(child_writer, plan);
	ASSERT_LT(0, pid);
	close(plan->sync[1]);
	/* The child took its buffer (or died trying). */
	ASSERT_EQ(1, read(plan->sync[0], &byte, 1));
	close(plan->sync[0]);
	return pid;
}

static void let_child_go(struct child_plan *plan)
{
	/* A line: the exec'd shell's read wants one. */
	if (write(plan->go[1], "g\n", 2) != 2)
		return;
	close(plan->go[1]);
}

struct mapped {
	struct fdr_control *c;
	size_t len;
};

static void map_region(struct __test_metadata *_metadata, int fd,
		       struct mapped *m)
{
	m->c = fdrt_map(fd, PROT_READ, &m->len);
	ASSERT_NE(NULL, m->c);
}

/* The buffer was reclaimed with its data and owner kept. */
static void assert_reclaimed(struct __test_metadata *_metadata, int fd,
			     struct mapped *m, struct child_plan *plan,
			     pid_t pid, uint64_t total, uint32_t in_use)
{
	struct fdr_buffer_desc *d = fdrt_desc(m->c, plan->desc);
	struct fdr_status st;

	ASSERT_EQ(FDR_BUF_RELEASED, d->state);
	ASSERT_EQ(plan->extents, d->extents);
	ASSERT_EQ(pid, d->owner_pid);
	ASSERT_EQ(0x5a, ((unsigned char *)m->c)[d->offset + plan->extents - 1]);
	ASSERT_EQ(0, ((unsigned char *)m->c)[d->offset + plan->extents]);
	ASSERT_EQ(0, fdrt_status(fd, &st));
	ASSERT_EQ(total, st.buffers_reclaimed);
	ASSERT_EQ(total, m->c->buffers_reclaimed);
	ASSERT_EQ(in_use, st.buffers_in_use);
}

static void assert_status(struct __test_metadata *_metadata, int fd,
			  uint32_t state, uint32_t reason, uint32_t sig,
			  pid_t pid)
{
	struct fdr_status st;

	ASSERT_EQ(0, fdrt_status(fd, &st));
	ASSERT_EQ(state, st.state);
	ASSERT_EQ(reason, st.finalize_reason);
	ASSERT_EQ(sig, st.finalize_signal);
	ASSERT_EQ(pid, st.finalize_pid);
}

TEST_F(dev, exit_reclaims_held_buffer)
{
	struct child_plan plan = { .end = END_EXIT, .desc = 1, .extents = 96 };
	struct mapped m;
	pid_t pid;

	REQUIRE_DEV();
	ASSERT_EQ(0, fdrt_init_default(self->fd, 0));
	map_region(_metadata, self->fd, &m);
	pid = start_child(_metadata, &plan);
	ASSERT_EQ(0, fdrt_wait(pid));
	assert_reclaimed(_metadata, self->fd, &m, &plan, pid, 1, 0);
	/* A clean exit is not a crash. */
	assert_status(_metadata, self->fd, FDR_STATE_INITIALIZED,
		      FDR_FINALIZE_NONE, 0, 0);
}

/* The fd was closed early: the mapping's teardown reclaims. */
TEST_F(dev, exit_after_close_reclaims_via_unmap)
{
	struct child_plan plan = { .end = END_CLOSE_EXIT, .desc = 0,
				   .extents = 48 };
	struct mapped m;
	pid_t pid;

	REQUIRE_DEV();
	ASSERT_EQ(0, fdrt_init_default(self->fd, 0));
	map_region(_metadata, self->fd, &m);
	pid = start_child(_metadata, &plan);
	ASSERT_EQ(0, fdrt_wait(pid));
	assert_reclaimed(_metadata, self->fd, &m, &plan, pid, 1, 0);
}

/* A live writer that closed its fd keeps its buffer. */
TEST_F(dev, live_writer_keeps_buffer)
{
	struct child_plan plan = { .end = END_WAIT, .desc = 2, .extents = 32 };
	struct fdr_status st;
	struct mapped m;
	pid_t pid;

	REQUIRE_DEV();
	ASSERT_EQ(0, fdrt_init_default(self->fd, 0));
	map_region(_metadata, self->fd, &m);
	pid = start_child(_metadata, &plan);
	/* Another process opening and closing the device changes nothing. */
	ASSERT_EQ(0, close(fdrt_open()));
	ASSERT_EQ(FDR_BUF_HELD, fdrt_desc(m.c, 2)->state);
	ASSERT_EQ(0, fdrt_status(self->fd, &st));
	ASSERT_EQ(1, st.buffers_in_use);
	ASSERT_EQ(0, st.buffers_reclaimed);
	let_child_go(&plan);
	ASSERT_EQ(0, fdrt_wait(pid));
	assert_reclaimed(_metadata, self->fd, &m, &plan, pid, 1, 0);
}

/* Only the dead process's buffers move; others' stay HELD. */
TEST_F(dev, other_owners_untouched)
{
	struct child_plan plan = { .end = END_EXIT, .desc = 3, .extents = 16 };
	struct fdr_control *c;
	struct fdr_buffer_desc *mine;
	struct mapped m;
	size_t len;
	pid_t pid;

	REQUIRE_DEV();
	ASSERT_EQ(0, fdrt_init_default(self->fd, 0));
	map_region(_metadata, self->fd, &m);
	c = fdrt_map(self->fd, PROT_READ | PROT_WRITE, &len);
	ASSERT_NE(NULL, c);
	mine = fdrt_desc(c, 0);
	mine->state = FDR_BUF_HELD;
	mine->owner_pid = getpid();
	pid = start_child(_metadata, &plan);
	ASSERT_EQ(0, fdrt_wait(pid));
	assert_reclaimed(_metadata, self->fd, &m, &plan, pid, 1, 1);
	ASSERT_EQ(FDR_BUF_HELD, mine->state);
	ASSERT_EQ(0, munmap(c, len));
}

/* Release by exec: the old image's buffers are free before it exits. */
TEST_F(dev, exec_reclaims)
{
	struct child_plan plan = { .end = END_EXEC, .desc = 1, .extents = 40 };
	struct mapped m;
	pid_t pid;

	REQUIRE_DEV();
	if (access("/bin/sh", X_OK))
		SKIP(return, "/bin/sh missing");
	ASSERT_EQ(0, fdrt_init_default(self->fd, 0));
	map_region(_metadata, self->fd, &m);
	pid = start_child(_metadata, &plan);
	ASSERT_EQ(0, fdrt_wait_u32(&fdrt_desc(m.c, 1)->state,
				   FDR_BUF_RELEASED, 10000));
	ASSERT_EQ(0, waitpid(pid, NULL, WNOHANG));	/* still running */
	let_child_go(&plan);
	ASSERT_EQ(0, fdrt_wait(pid));
	assert_reclaimed(_metadata, self->fd, &m, &plan, pid, 1, 0);
	assert_status(_metadata, self->fd, FDR_STATE_INITIALIZED,
		      FDR_FINALIZE_NONE, 0, 0);
}

/* fdrt_spawn's child returned @pid; check it died of @sig. */
static void assert_killed_by(struct __test_metadata *_metadata, pid_t pid,
			     int sig)
{
	int status = fdrt_wait(pid);

	ASSERT_TRUE(WIFSIGNALED(status));
	ASSERT_EQ(sig, WTERMSIG(status));
}

TEST_F(dev, crash_sigsegv_finalizes)
{
	struct child_plan plan = { .end = END_SEGV, .desc = 1, .extents = 80 };
	struct pollfd pfd = { .fd = self->fd, .events = POLLIN };
	struct mapped m;
	pid_t pid;

	REQUIRE_DEV();
	ASSERT_EQ(0, fdrt_init_default(self->fd, 0));
	map_region(_metadata, self->fd, &m);
	ASSERT_EQ(0, poll(&pfd, 1, 0));
	pid = start_child(_metadata, &plan);
	assert_killed_by(_metadata, pid, SIGSEGV);
	ASSERT_EQ(1, poll(&pfd, 1, 5000));
	ASSERT_TRUE(pfd.revents & POLLIN);
	assert_status(_metadata, self->fd, FDR_STATE_FINALIZED,
		      FDR_FINALIZE_CRASH, SIGSEGV, pid);
	assert_reclaimed(_metadata, self->fd, &m, &plan, pid, 1, 0);
	ASSERT_EQ(FDR_STATE_FINALIZED, m.c->state);
	ASSERT_EQ(FDR_FINALIZE_CRASH, m.c->finalize_reason);
	ASSERT_EQ(SIGSEGV, m.c->finalize_signal);
	ASSERT_EQ(pid, m.c->finalize_pid);
}

TEST_F(dev, crash_abort_finalizes)
{
	struct child_plan plan = { .end = END_ABORT, .desc = 0, .extents = 8 };
	struct mapped m;
	pid_t pid;

	REQUIRE_DEV();
	ASSERT_EQ(0, fdrt_init_default(self->fd, 0));
	map_region(_metadata, self->fd, &m);
	pid = start_child(_metadata, &plan);
	assert_killed_by(_metadata, pid, SIGABRT);
	assert_status(_metadata, self->fd, FDR_STATE_FINALIZED,
		      FDR_FINALIZE_CRASH, SIGABRT, pid);
	assert_reclaimed(_metadata, self->fd, &m, &plan, pid, 1, 0);
}

TEST_F(dev, crash_sigkill_finalizes)
{
	struct child_plan plan = { .end = END_WAIT, .desc = 2, .extents = 24 };
	struct mapped m;
	pid_t pid;

	REQUIRE_DEV();
	ASSERT_EQ(0, fdrt_init_default(self->fd, 0));
	map_region(_metadata, self->fd, &m);
	pid = start_child(_metadata, &plan);
	ASSERT_EQ(0, kill(pid, SIGKILL));
	assert_killed_by(_metadata, pid, SIGKILL);
	assert_status(_metadata, self->fd, FDR_STATE_FINALIZED,
		      FDR_FINALIZE_CRASH, SIGKILL, pid);
	assert_reclaimed(_metadata, self->fd, &m, &plan, pid, 1, 0);
}

TEST_F(dev, no_crash_finalize_flag)
{
	struct child_plan plan = { .end = END_SEGV, .desc = 1, .extents = 8 };
	struct mapped m;
	pid_t pid;

	REQUIRE_DEV();
	ASSERT_EQ(0, fdrt_init_default(self->fd, FDR_INIT_NO_CRASH_FINALIZE));
	map_region(_metadata, self->fd, &m);
	ASSERT_EQ(0, m.c->flags & FDR_CTL_CRASH_FINALIZE);
	pid = start_child(_metadata, &plan);
	assert_killed_by(_metadata, pid, SIGSEGV);
	assert_status(_metadata, self->fd, FDR_STATE_INITIALIZED,
		      FDR_FINALIZE_NONE, 0, 0);
	assert_reclaimed(_metadata, self->fd, &m, &plan, pid, 1, 0);
}

/* A reader (read-only mapping, no buffers) killed is not a crash. */
TEST_F(dev, reader_killed_does_not_finalize)
{
	struct child_plan plan = { .end = END_WAIT, .prot = PROT_READ };
	pid_t pid;

	REQUIRE_DEV();
	ASSERT_EQ(0, fdrt_init_default(self->fd, 0));
	pid = start_child(_metadata, &plan);
	ASSERT_EQ(0, kill(pid, SIGTERM));
	assert_killed_by(_metadata, pid, SIGTERM);
	assert_status(_metadata, self->fd, FDR_STATE_INITIALIZED,
		      FDR_FINALIZE_NONE, 0, 0);
}

/* A crash after a manual FINALIZE keeps the first reason. */
TEST_F(dev, crash_after_finalize_keeps_reason)
{
	struct child_plan plan = { .end = END_WAIT, .desc = 1, .extents = 8 };
	struct mapped m;
	pid_t pid;

	REQUIRE_DEV();
	ASSERT_EQ(0, fdrt_init_default(self->fd, 0));
	map_region(_metadata, self->fd, &m);
	pid = start_child(_metadata, &plan);
	ASSERT_EQ(0, fdrt_ioctl(self->fd, FDR_IOC_FINALIZE));
	ASSERT_EQ(0, kill(pid, SIGKILL));
	assert_killed_by(_metadata, pid, SIGKILL);
	assert_status(_metadata, self->fd, FDR_STATE_FINALIZED,
		      FDR_FINALIZE_IOCTL, 0, getpid());
	assert_reclaimed(_metadata, self->fd, &m, &plan, pid, 1, 0);
}

/* Threads each hold a buffer; one crashes: all are reclaimed. */
struct thread_arg {
	struct fdr_control *c;
	uint32_t desc;
	int ready_fd;
};

static void *holder_thread(void *p)
{
	struct thread_arg *a = p;
	struct fdr_buffer_desc *d = fdrt_desc(a->c, a->desc);

	d->owner_tid = gettid();
	d->owner_pid = getpid();
	__atomic_store_n(&d->extents, 16, __ATOMIC_RELEASE);
	__atomic_store_n(&d->state, FDR_BUF_HELD, __ATOMIC_RELEASE);
	if (write(a->ready_fd, "t", 1) != 1)
		return NULL;
	for (;;)
		pause();
	return NULL;
}

static int threaded_child(void *arg)
{
	int *ready = arg;
	struct thread_arg args[4];
	pthread_t t[4];
	struct fdr_control *c;
	size_t len;
	int i, fd = fdrt_open();

	no_core_dumps();
	if (fd < 0)
		return 10;
	c = fdrt_map(fd, PROT_READ | PROT_WRITE, &len);
	if (!c)
		return 11;
	for (i = 0; i < 4; i++) {
		args[i] = (struct thread_arg){ c, (uint32_t)i, ready[1] };
		if (pthread_create(&t[i], NULL, holder_thread, &args[i]))
			return 12;
	}
	for (;;)
		pause();
}

TEST_F(dev, threaded_crash_reclaims_all)
{
	struct fdr_status st;
	struct mapped m;
	int ready[2], i;
	char byte;
	pid_t pid;

	REQUIRE_DEV();
	ASSERT_EQ(0, fdrt_init(self->fd, sysconf(_SC_PAGESIZE), 4, 0));
	map_region(_metadata, self->fd, &m);
	ASSERT_EQ(0, pipe(ready));
	pid = fdrt_spawn(threaded_child, ready);
	ASSERT_LT(0, pid);
	for (i = 0; i < 4; i++)
		ASSERT_EQ(1, read(ready[0], &byte, 1));
	ASSERT_EQ(0, fdrt_status(self->fd, &st));
	ASSERT_EQ(4, st.buffers_in_use);
	ASSERT_EQ(0, kill(pid, SIGBUS));
	assert_killed_by(_metadata, pid, SIGBUS);
	ASSERT_EQ(0, fdrt_status(self->fd, &st));
	ASSERT_EQ(0, st.buffers_in_use);
	ASSERT_EQ(4, st.buffers_reclaimed);
	ASSERT_EQ(FDR_FINALIZE_CRASH, st.finalize_reason);
	ASSERT_EQ(SIGBUS, st.finalize_signal);
	for (i = 0; i < 4; i++) {
		ASSERT_EQ(FDR_BUF_RELEASED, fdrt_desc(m.c, i)->state);
		ASSERT_EQ(16, fdrt_desc(m.c, i)->extents);
	}
}

/* Garbage in every descriptor: reclaim and STATUS stay sane. */
TEST_F(dev, scribbled_descriptors)
{
	struct child_plan plan = { .end = END_EXIT, .desc = 0, .extents = 8 };
	struct fdr_status st;
	struct fdr_control *c;
	size_t len;
	uint32_t i;
	pid_t pid;

	REQUIRE_DEV();
	ASSERT_EQ(0, fdrt_init_default(self->fd, 0));
	c = fdrt_map(self->fd, PROT_READ | PROT_WRITE, &len);
	ASSERT_NE(NULL, c);
	pid = start_child(_metadata, &plan);
	ASSERT_EQ(0, fdrt_wait(pid));
	for (i = 1; i < c->nr_buffers; i++)
		memset(fdrt_desc(c, i), 0xff - i, FDR_BUFFER_DESC_SIZE);
	memset(c, 0xee, FDR_CONTROL_HEADER_SIZE);
	pid = start_child(_metadata, &(struct child_plan){ .end = END_EXIT,
		.prot = PROT_READ });
	ASSERT_EQ(0, fdrt_wait(pid));
	ASSERT_EQ(0, fdrt_status(self->fd, &st));
	ASSERT_EQ(FDR_STATE_INITIALIZED, st.state);
	ASSERT_EQ(len, st.map_size);
	ASSERT_EQ(1, st.buffers_reclaimed);
	ASSERT_EQ(0, munmap(c, len));
}

/*
 * A writer in a pid namespace of its own (pid 1 there): it stores what
 * STATUS tells it (getpid() on a kernel without owner_pid, as libfdr).
 */
struct ns_writer {
	uint32_t desc;
	int sync[2], go[2];
	char stack[64 * 1024] __attribute__((aligned(16)));
};

static int ns_writer_main(void *arg)
{
	struct ns_writer *w = arg;
	struct fdr_buffer_desc *d;
	struct fdr_status st;
	struct fdr_control *c;
	uint32_t expect = FDR_BUF_FREE;
	int32_t mine[2];
	size_t len;
	char byte;
	int fd = fdrt_open();

	if (fd < 0 || fdrt_status(fd, &st))
		return 10;
	c = fdrt_map(fd, PROT_READ | PROT_WRITE, &len);
	if (!c)
		return 11;
	d = fdrt_desc(c, w->desc);
	if (!__atomic_compare_exchange_n(&d->state, &expect, FDR_BUF_HELD, 0,
					 __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE))
		return 12;
	d->owner_tid = gettid();
	d->owner_pid = st.owner_pid ? st.owner_pid : getpid();
	d->extents = 8;
	mine[0] = getpid();
	mine[1] = d->owner_pid;
	if (write(w->sync[1], mine, sizeof(mine)) != sizeof(mine))
		return 13;
	return read(w->go[0], &byte, 1) == 1 ? 0 : 14;
}

static void let_ns_writer_go(struct ns_writer *w)
{
	if (write(w->go[1], "g", 1) == 1)
		close(w->go[1]);
}

/* Start @w (clone @flags); *nspid and *stored from the child. */
static pid_t start_ns_writer(struct __test_metadata *_metadata,
			     struct ns_writer *w, int flags, int32_t *nspid,
			     int32_t *stored)
{
	int32_t got[2];
	pid_t pid;

	ASSERT_EQ(0, pipe(w->sync));
	ASSERT_EQ(0, pipe(w->go));
	pid = clone(ns_writer_main, w->stack + sizeof(w->stack),
		    flags | SIGCHLD, w);
	ASSERT_LT(0, pid);
	close(w->sync[1]);
	ASSERT_EQ(sizeof(got), read(w->sync[0], got, sizeof(got)));
	close(w->sync[0]);
	*nspid = got[0];
	*stored = got[1];
	return pid;
}

/*
 * Two writers, each pid 1 in its own namespace: one dying must not
 * reclaim the other's buffer (the kernel numbers both in the region's
 * namespace).
 */
TEST_F(dev, pid_namespaces_do_not_mix)
{
	static struct ns_writer a = { .desc = 0 }, b = { .desc = 1 };
	int32_t a_ns, a_id, b_ns, b_id;
	struct fdr_status st;
	struct mapped m;
	pid_t pa, pb;

	REQUIRE_DEV();
	ASSERT_EQ(0, fdrt_init_default(self->fd, 0));
	map_region(_metadata, self->fd, &m);
	pa = start_ns_writer(_metadata, &a, CLONE_NEWPID, &a_ns, &a_id);
	pb = start_ns_writer(_metadata, &b, CLONE_NEWPID, &b_ns, &b_id);
	ASSERT_EQ(1, a_ns);
	ASSERT_EQ(1, b_ns);
	ASSERT_EQ(FDR_BUF_HELD, fdrt_desc(m.c, 0)->state);
	ASSERT_EQ(FDR_BUF_HELD, fdrt_desc(m.c, 1)->state);
	/* b exits; a, pid 1 as well, still records into buffer 0. */
	let_ns_writer_go(&b);
	ASSERT_EQ(0, fdrt_wait(pb));
	ASSERT_EQ(FDR_BUF_RELEASED, fdrt_desc(m.c, 1)->state);
	EXPECT_EQ(FDR_BUF_HELD, fdrt_desc(m.c, 0)->state);
	ASSERT_EQ(0, fdrt_status(self->fd, &st));
	EXPECT_EQ(1, st.buffers_reclaimed);
	EXPECT_EQ(1, st.buffers_in_use);
	let_ns_writer_go(&a);
	ASSERT_EQ(0, fdrt_wait(pa));
	ASSERT_EQ(FDR_BUF_RELEASED, fdrt_desc(m.c, 0)->state);
	ASSERT_EQ(0, fdrt_status(self->fd, &st));
	ASSERT_EQ(2, st.buffers_reclaimed);
	/* The ids are the pids the region's creator (we) sees. */
	ASSERT_EQ(pa, a_id);
	ASSERT_EQ(pb, b_id);
	ASSERT_EQ(getpid(), st.owner_pid);
}

/* INIT from inside a new pid namespace; then it exits. */
static int ns_initer_main(void *arg)
{
	int fd = fdrt_open();

	(void)arg;
	return fd >= 0 && fdrt_init_default(fd, 0) == 0 ? 0 : 10;
}

/*
 * A region created in a pid namespace its writers are not in: they are
 * numbered by minus their initial-namespace pid, and still reclaimed.
 */
TEST_F(dev, writers_the_creator_cannot_see)
{
	static char stack[64 * 1024] __attribute__((aligned(16)));
	static struct ns_writer w = { .desc = 3 };
	int32_t nspid, id;
	struct fdr_status st;
	struct mapped m;
	pid_t pid;

	REQUIRE_DEV();
	pid = clone(ns_initer_main, stack + sizeof(stack),
		    CLONE_NEWPID | SIGCHLD, NULL);
	ASSERT_LT(0, pid);
	ASSERT_EQ(0, fdrt_wait(pid));
	ASSERT_EQ(0, fdrt_status(self->fd, &st));
	ASSERT_EQ(FDR_STATE_INITIALIZED, st.state);
	ASSERT_EQ(-getpid(), st.owner_pid);
	map_region(_metadata, self->fd, &m);
	pid = start_ns_writer(_metadata, &w, 0, &nspid, &id);
	ASSERT_EQ(pid, nspid);
	ASSERT_EQ(-pid, id);
	ASSERT_EQ(FDR_BUF_HELD, fdrt_desc(m.c, 3)->state);
	let_ns_writer_go(&w);
	ASSERT_EQ(0, fdrt_wait(pid));
	ASSERT_EQ(FDR_BUF_RELEASED, fdrt_desc(m.c, 3)->state);
	ASSERT_EQ(-pid, fdrt_desc(m.c, 3)->owner_pid);
	ASSERT_EQ(0, fdrt_status(self->fd, &st));
	ASSERT_EQ(1, st.buffers_reclaimed);
}

/*
 * A writer W whose address space outlives it: a CLONE_VM sibling C
 * shares it (END_SIBLING), so the last reference to it goes when C ends,
 * in C's context, after W is dead.  C either exits normally or is
 * killed.
 */
static void writer_dies_sibling_holds_mm(struct __test_metadata *_metadata,
					 int fd, int sibling_killed)
{
	struct child_plan plan = { .end = END_SIBLING, .extents = 64,
				   .sibling_killed = sibling_killed };
	struct fdr_status st;
	struct mapped m;
	siginfo_t info;
	pid_t writer, sibling;
	int status;

	ASSERT_EQ(0, prctl(PR_SET_CHILD_SUBREAPER, 1));
	ASSERT_EQ(0, fdrt_init(fd, 4096, 1, FDR_INIT_NO_SCHED));
	map_region(_metadata, fd, &m);
	ASSERT_EQ(0, pipe(plan.sibling_pid));
	writer = start_child(_metadata, &plan);
	close(plan.sibling_pid[1]);
	ASSERT_EQ(sizeof(sibling), read(plan.sibling_pid[0], &sibling,
					sizeof(sibling)));
	ASSERT_EQ(FDR_BUF_HELD, fdrt_desc(m.c, 0)->state);

	/* W dies by SIGTERM; its address space lives on in C. */
	ASSERT_EQ(0, kill(writer, SIGTERM));
	/* A zombie, not reaped: its exit is still there to read. */
	ASSERT_EQ(0, waitid(P_PID, writer, &info, WEXITED | WNOWAIT));
	ASSERT_EQ(0, fdrt_status(fd, &st));
	ASSERT_EQ(FDR_STATE_INITIALIZED, st.state);
	ASSERT_EQ(FDR_BUF_HELD, fdrt_desc(m.c, 0)->state);

	/* C ends: the last reference to W's address space goes with it. */
	if (sibling_killed) {
		ASSERT_EQ(0, kill(sibling, SIGKILL));
	} else {
		let_child_go(&plan);
	}
	ASSERT_EQ(sibling, waitpid(sibling, &status, 0));
	ASSERT_EQ(0, fdrt_status(fd, &st));
	TH_LOG("state %u reason %u signal %u pid %d (writer %d, sibling %d), reclaimed %llu",
	       st.state, st.finalize_reason, st.finalize_signal,
	       st.finalize_pid, writer, sibling,
	       (unsigned long long)st.buffers_reclaimed);
	EXPECT_EQ(FDR_BUF_RELEASED, fdrt_desc(m.c, 0)->state);
	EXPECT_EQ(1, st.buffers_reclaimed);
	EXPECT_EQ(FDR_STATE_FINALIZED, st.state);
	EXPECT_EQ(FDR_FINALIZE_CRASH, st.finalize_reason);
	EXPECT_EQ(SIGTERM, st.finalize_signal);
	EXPECT_EQ(writer, st.finalize_pid);
	waitpid(writer, &status, 0);
	munmap(m.c, m.len);
	prctl(PR_SET_CHILD_SUBREAPER, 0);
}

/*
 * Before, C's exit ran the reclaim as C: C held nothing and died of no
 * signal, so W's buffer stayed HELD and W's death never finalized.
 */
TEST_F(dev, last_mm_reference_dropped_by_a_sibling_reclaims_the_writer)
{
	REQUIRE_DEV();
	writer_dies_sibling_holds_mm(_metadata, self->fd, 0);
}

/*
 * Before, a killed C was taken for the dying writer: the crash finalize
 * named C and SIGKILL, and W's buffer stayed HELD.
 */
TEST_F(dev, last_mm_reference_dropped_by_a_killed_sibling_names_the_writer)
{
	REQUIRE_DEV();
	writer_dies_sibling_holds_mm(_metadata, self->fd, 1);
}

TEST_HARNESS_MAIN
