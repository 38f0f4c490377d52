// SPDX-License-Identifier: GPL-2.0
/*
 * fdr_session_test.c - named sessions: recorders of their own beside the
 * default one, private to the uid that made them, within the per-user
 * and machine-wide caps, freed with their last file and mapping.
 *
 * Other users are children that open /dev/fdr as root and then drop to
 * an unprivileged uid: the open needs privilege, a session's rules look
 * at the caller of each ioctl.
 */
#include <errno.h>
#include <grp.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>
#include "kselftest_harness.h"
#include "fdr_fixture.h"

#define UID_OWNER	1000
#define UID_MEMBER	1001
#define UID_STRANGER	1002
#define GID_SHARED	4242
#define MIB		(1ull << 20)


static uint32_t state_of(int fd)
{
	struct fdr_status st;

	return fdrt_status(fd, &st) ? 99 : st.state;
}

static int attach(int fd, const char *name)
{
	return fdrt_session(fd, FDR_IOC_SESSION_ATTACH, name, 0, 0);
}

/* The live_bytes INFO reports for @name, or 0 if it is not listed. */
static uint64_t live_bytes_of(int fd, const char *name)
{
	struct fdr_session_info info;
	uint32_t i;

	for (i = 0; !fdrt_session_info(fd, i, &info); i++)
		if (!strcmp(info.name, name))
			return info.live_bytes;
	return 0;
}

TEST_F(dev, two_sessions_record_apart)
{
	struct fdr_status sa, sb, sd;
	unsigned char *a, *b;
	size_t la, lb;
	int fa, fb;

	REQUIRE_DEV();
	fa = fdrt_session_new("rec-a");
	fb = fdrt_session_new("rec-b");
	ASSERT_LE(0, fa);
	ASSERT_LE(0, fb);
	ASSERT_EQ(0, fdrt_init(fa, 4096, 2, 0));
	ASSERT_EQ(0, fdrt_init(fb, 8192, 3, 0));
	ASSERT_EQ(0, fdrt_status(fa, &sa));
	ASSERT_EQ(0, fdrt_status(fb, &sb));
	ASSERT_EQ(0, fdrt_status(self->fd, &sd));
	/* Each its own region and generation; the default one untouched. */
	ASSERT_EQ(FDR_STATE_INITIALIZED, sa.state);
	ASSERT_EQ(FDR_STATE_INITIALIZED, sb.state);
	ASSERT_EQ(FDR_STATE_UNINITIALIZED, sd.state);
	ASSERT_EQ(4096, sa.buffer_size);
	ASSERT_EQ(8192, sb.buffer_size);
	ASSERT_EQ(1, sa.generation);
	ASSERT_EQ(1, sb.generation);
	ASSERT_EQ(0, sd.map_size);
	/* Both record the scheduling view when the kernel has one. */
	ASSERT_EQ(sa.flags & FDR_CTL_SCHED, sb.flags & FDR_CTL_SCHED);

	a = fdrt_map(fa, PROT_READ | PROT_WRITE, &la);
	b = fdrt_map(fb, PROT_READ | PROT_WRITE, &lb);
	ASSERT_NE(NULL, a);
	ASSERT_NE(NULL, b);
	ASSERT_EQ(sa.map_size, la);
	ASSERT_EQ(sb.map_size, lb);
	memset(a + fdrt_desc(a, 0)->offset, 0xa5, 4096);
	memset(b + fdrt_desc(b, 0)->offset, 0x5b, 8192);
	/* The writes land in their own session's pages only. */
	ASSERT_EQ(0xa5, a[fdrt_desc(a, 0)->offset + 4095]);
	ASSERT_EQ(0, a[fdrt_desc(a, 1)->offset]);
	ASSERT_EQ(0x5b, b[fdrt_desc(b, 0)->offset]);
	ASSERT_EQ(0, b[fdrt_desc(b, 1)->offset]);
	munmap(a, la);
	munmap(b, lb);
	close(fa);
	close(fb);
}

TEST_F(dev, finalize_and_reset_of_one_leave_the_other)
{
	struct fdr_control *cb;
	size_t len;
	int fa, fb;

	REQUIRE_DEV();
	fa = fdrt_session_new("fin-a");
	fb = fdrt_session_new("fin-b");
	ASSERT_LE(0, fa);
	ASSERT_LE(0, fb);
	ASSERT_EQ(0, fdrt_init(fa, 4096, 1, FDR_INIT_NO_SCHED));
	ASSERT_EQ(0, fdrt_init(fb, 4096, 1, FDR_INIT_NO_SCHED));
	cb = fdrt_map(fb, PROT_READ | PROT_WRITE, &len);
	ASSERT_NE(NULL, cb);

	ASSERT_EQ(0, fdrt_ioctl(fa, FDR_IOC_FINALIZE));
	ASSERT_EQ(FDR_STATE_FINALIZED, state_of(fa));
	ASSERT_EQ(FDR_STATE_INITIALIZED, state_of(fb));
	ASSERT_EQ(FDR_STATE_INITIALIZED, cb->state);
	ASSERT_EQ(0, fdrt_ioctl(fa, FDR_IOC_RESET));
	ASSERT_EQ(FDR_STATE_UNINITIALIZED, state_of(fa));
	ASSERT_EQ(FDR_STATE_INITIALIZED, state_of(fb));
	ASSERT_EQ(FDR_STATE_INITIALIZED, cb->state);

	/* The default session's cycle does not reach b either. */
	ASSERT_EQ(0, fdrt_init_default(self->fd, FDR_INIT_NO_SCHED));
	ASSERT_EQ(0, fdrt_ioctl(self->fd, FDR_IOC_FINALIZE));
	ASSERT_EQ(0, fdrt_ioctl(self->fd, FDR_IOC_RESET));
	ASSERT_EQ(FDR_STATE_INITIALIZED, cb->state);
	ASSERT_EQ(0, fdrt_ioctl(fb, FDR_IOC_FINALIZE));
	ASSERT_EQ(FDR_STATE_FINALIZED, cb->state);
	munmap(cb, len);
	close(fa);
	close(fb);
}

struct shared_fd {
	int fd;			/* opened by the parent, before the fork */
	uint32_t flags;		/* of the session the owner creates */
};

/* As UID_OWNER: create "priv" on the parent's file and INIT it. */
static int owner_creates(void *arg)
{
	struct shared_fd *s = arg;

	if (fdrt_become(UID_OWNER, s->flags ? GID_SHARED : 0))
		return 1;
	if (fdrt_session(s->fd, FDR_IOC_SESSION_CREATE, "priv", s->flags,
			 s->flags ? GID_SHARED : 0))
		return 2;
	return fdrt_init(s->fd, 4096, 2, FDR_INIT_NO_SCHED) ? 3 : 0;
}

/*
 * As UID_STRANGER on a file of its own: "priv" cannot be attached or
 * seen, and what the file reaches is the default session, not priv.
 */
static int stranger_is_refused(void *arg)
{
	struct fdr_session_info info;
	struct fdr_status st;
	int fd = fdrt_open();

	(void)arg;
	if (fd < 0 || fdrt_become(UID_STRANGER, 0))
		return 1;
	/* Names are per owner: its own "priv" (none), not the owner's. */
	if (attach(fd, "priv") != -ENOENT ||
	    fdrt_attach_owner(fd, "priv", UID_OWNER) != -ENOENT)
		return 2;
	if (fdrt_session_info(fd, 0, &info) != -ENOENT)
		return 3;
	if (fdrt_status(fd, &st) || st.state != FDR_STATE_UNINITIALIZED ||
	    st.map_size)
		return 4;
	if (mmap(NULL, 4096, PROT_READ, MAP_SHARED, fd, 0) != MAP_FAILED ||
	    errno != ENODEV)
		return 5;
	if (fdrt_ioctl(fd, FDR_IOC_FINALIZE) != -EBUSY)
		return 6;
	/* Not its group: a shared session of another group is refused. */
	if (fdrt_session(fd, FDR_IOC_SESSION_CREATE, "mine",
			 FDR_SESSION_GROUP, GID_SHARED) != -EPERM)
		return 7;
	return 0;
}

TEST_F(dev, other_user_cannot_attach_see_or_stop)
{
	struct shared_fd s = { .fd = fdrt_open() };
	struct fdr_session_info info;

	REQUIRE_DEV();
	ASSERT_LE(0, s.fd);
	ASSERT_EQ(0, fdrt_child_result(owner_creates, &s));
	/* The parent shares the bound file: the session lives on. */
	ASSERT_EQ(FDR_STATE_INITIALIZED, state_of(s.fd));
	ASSERT_EQ(0, fdrt_session_info(self->fd, 0, &info));
	ASSERT_STREQ("priv", info.name);
	ASSERT_EQ(UID_OWNER, info.owner_uid);
	ASSERT_EQ(FDR_ROLE_OWNER, info.role);	/* root: CAP_SYS_ADMIN */

	ASSERT_EQ(0, fdrt_child_result(stranger_is_refused, NULL));
	ASSERT_EQ(FDR_STATE_INITIALIZED, state_of(s.fd));
	close(s.fd);
}

/* As UID_MEMBER of GID_SHARED: a writer of "priv", nothing more. */
static int member_writes_only(void *arg)
{
	struct fdr_session_info info;
	struct fdr_status st;
	size_t len;
	void *p;
	int fd = fdrt_open();

	(void)arg;
	if (fd < 0 || fdrt_become(UID_MEMBER, GID_SHARED))
		return 1;
	/* A writer names the owner it expects: its own "priv" is none. */
	if (attach(fd, "priv") != -ENOENT ||
	    fdrt_attach_owner(fd, "priv", UID_OWNER))
		return 2;
	if (fdrt_session_info(fd, 0, &info) || info.role != FDR_ROLE_WRITER ||
	    info.owner_uid != UID_OWNER || info.gid != GID_SHARED)
		return 3;
	if (fdrt_init(fd, 4096, 1, 0) != -EPERM ||
	    fdrt_ioctl(fd, FDR_IOC_FINALIZE) != -EPERM ||
	    fdrt_ioctl(fd, FDR_IOC_RESET) != -EPERM ||
	    fdrt_ioctl(fd, FDR_IOC_FLUSH_BEGIN) != -EPERM ||
	    fdrt_ioctl(fd, FDR_IOC_FLUSH_ABORT) != -EPERM)
		return 4;
	if (fdrt_map(fd, PROT_READ, &len) || errno != EACCES)
		return 5;
	if (fdrt_status(fd, &st) || st.state != FDR_STATE_INITIALIZED)
		return 6;
	p = mmap(NULL, 4096, PROT_READ, MAP_SHARED, fd, st.map_size);
	if (p != MAP_FAILED || errno != EACCES)
		return 7;
	p = fdrt_map(fd, PROT_READ | PROT_WRITE, &len);
	if (!p || len != st.map_size)
		return 8;
	return munmap(p, len) ? 9 : 0;
}

TEST_F(dev, group_member_records_but_does_not_drive)
{
	struct shared_fd s = { .fd = fdrt_open(), .flags = FDR_SESSION_GROUP };

	REQUIRE_DEV();
	ASSERT_LE(0, s.fd);
	ASSERT_EQ(0, fdrt_child_result(owner_creates, &s));
	ASSERT_EQ(0, fdrt_child_result(member_writes_only, NULL));
	/* A user outside the group is still refused. */
	ASSERT_EQ(0, fdrt_child_result(stranger_is_refused, NULL));
	ASSERT_EQ(FDR_STATE_INITIALIZED, state_of(s.fd));
	close(s.fd);
}

TEST_F(dev, names_and_binding)
{
	char longest[FDR_SESSION_NAME_MAX];
	struct fdr_session req = { .size = sizeof(req) };
	int fd, other;

	REQUIRE_DEV();
	fd = fdrt_open();
	ASSERT_LE(0, fd);
	ASSERT_EQ(-EINVAL, fdrt_session(fd, FDR_IOC_SESSION_CREATE, "", 0, 0));
	ASSERT_EQ(-EINVAL, fdrt_session(fd, FDR_IOC_SESSION_CREATE, ".a", 0, 0));
	ASSERT_EQ(-EINVAL, fdrt_session(fd, FDR_IOC_SESSION_CREATE, "a/b", 0, 0));
	ASSERT_EQ(-EINVAL, fdrt_session(fd, FDR_IOC_SESSION_CREATE, "a b", 0, 0));
	ASSERT_EQ(-EINVAL, fdrt_session(fd, FDR_IOC_SESSION_CREATE, "n", 2, 0));
	ASSERT_EQ(-EINVAL, fdrt_session(fd, FDR_IOC_SESSION_CREATE, "n", 0, 7));
	ASSERT_EQ(-EINVAL, fdrt_session(fd, FDR_IOC_SESSION_ATTACH, "n",
					FDR_SESSION_GROUP, 0));
	/* No NUL in the name field. */
	memset(req.name, 'x', sizeof(req.name));
	ASSERT_EQ(-1, ioctl(fd, FDR_IOC_SESSION_CREATE, &req));
	ASSERT_EQ(EINVAL, errno);
	req.size = 8;
	ASSERT_EQ(-1, ioctl(fd, FDR_IOC_SESSION_CREATE, &req));
	ASSERT_EQ(EINVAL, errno);
	ASSERT_EQ(-ENOENT, attach(fd, "absent"));
	/* Nothing was made by the refusals. */
	ASSERT_EQ(0, fdrt_session_count(fd));

	memset(longest, 'y', sizeof(longest) - 1);
	longest[sizeof(longest) - 1] = '\0';
	ASSERT_EQ(0, fdrt_session(fd, FDR_IOC_SESSION_CREATE, longest, 0, 0));
	/* Bound once. */
	ASSERT_EQ(-EBUSY, fdrt_session(fd, FDR_IOC_SESSION_CREATE, "z", 0, 0));
	ASSERT_EQ(-EBUSY, attach(fd, longest));
	other = fdrt_open();
	ASSERT_LE(0, other);
	ASSERT_EQ(-EEXIST,
		  fdrt_session(other, FDR_IOC_SESSION_CREATE, longest, 0, 0));
	ASSERT_EQ(1, fdrt_session_count(other));
	close(fd);
	/* The last file gone, the session and its name are gone. */
	ASSERT_EQ(0, fdrt_session_count(other));
	ASSERT_EQ(0, fdrt_session(other, FDR_IOC_SESSION_CREATE, longest, 0, 0));
	close(other);
}

TEST_F(dev, session_lives_while_mapped)
{
	void *p;
	size_t len;
	int fd, again;

	REQUIRE_DEV();
	fd = fdrt_session_new("mapped");
	ASSERT_LE(0, fd);
	ASSERT_EQ(0, fdrt_init(fd, 4096, 1, FDR_INIT_NO_SCHED));
	p = fdrt_map(fd, PROT_READ | PROT_WRITE, &len);
	ASSERT_NE(NULL, p);
	close(fd);
	again = fdrt_open();
	ASSERT_LE(0, again);
	ASSERT_LT(0, live_bytes_of(again, "mapped"));
	ASSERT_EQ(0, attach(again, "mapped"));
	ASSERT_EQ(FDR_STATE_INITIALIZED, state_of(again));
	close(again);
	ASSERT_EQ(0, munmap(p, len));
	again = fdrt_open();
	ASSERT_LE(0, again);
	ASSERT_EQ(-ENOENT, attach(again, "mapped"));
	close(again);
}

/* Restores the caps a test changed. */
struct caps {
	long long sessions, user_mb, total_mb;
};

static void caps_save(struct caps *c)
{
	c->sessions = fdrt_param("max_user_sessions");
	c->user_mb = fdrt_param("max_user_mb");
	c->total_mb = fdrt_param("max_total_mb");
}

static void caps_restore(const struct caps *c)
{
	fdrt_write_param("max_user_sessions", c->sessions);
	fdrt_write_param("max_user_mb", c->user_mb);
	fdrt_write_param("max_total_mb", c->total_mb);
}

TEST_F(dev, session_cap_refuses_with_edquot)
{
	struct caps saved;
	int f1, f2, f3;

	REQUIRE_DEV();
	caps_save(&saved);
	ASSERT_EQ(16, saved.sessions);
	ASSERT_EQ(0, fdrt_write_param("max_user_sessions", 2));
	f1 = fdrt_session_new("cap-1");
	f2 = fdrt_session_new("cap-2");
	f3 = fdrt_session_new("cap-3");
	caps_restore(&saved);
	ASSERT_LE(0, f1);
	ASSERT_LE(0, f2);
	ASSERT_EQ(-EDQUOT, f3);
	ASSERT_EQ(2, fdrt_session_count(self->fd));
	close(f1);
	close(f2);
}

/* INIT of 2 buffers of 1 MiB per CPU: the memory it takes. */
static int init_big(int fd)
{
	return fdrt_init(fd, MIB, 2, FDR_INIT_NO_SCHED);
}

TEST_F(dev, memory_caps_refuse_and_change_nothing)
{
	unsigned long long one_mb;
	struct caps saved;
	int fa, fb;

	REQUIRE_DEV();
	caps_save(&saved);
	fa = fdrt_session_new("mem-a");
	fb = fdrt_session_new("mem-b");
	ASSERT_LE(0, fa);
	ASSERT_LE(0, fb);
	ASSERT_EQ(0, init_big(fa));
	/* One region's worth, rounded up to MiB, is each cap in turn. */
	one_mb = (live_bytes_of(fa, "mem-a") + MIB - 1) / MIB;
	ASSERT_LT(2, one_mb);

	ASSERT_EQ(0, fdrt_write_param("max_user_mb", one_mb));
	ASSERT_EQ(-EDQUOT, init_big(fb));
	ASSERT_EQ(FDR_STATE_UNINITIALIZED, state_of(fb));
	ASSERT_EQ(0, live_bytes_of(fb, "mem-b"));
	/* The default session has no owner to count against. */
	ASSERT_EQ(0, init_big(self->fd));
	ASSERT_EQ(0, fdrt_to_uninitialized(self->fd));

	ASSERT_EQ(0, fdrt_write_param("max_user_mb", saved.user_mb));
	ASSERT_EQ(0, fdrt_write_param("max_total_mb", one_mb));
	ASSERT_EQ(-ENOMEM, init_big(fb));
	ASSERT_EQ(-ENOMEM, init_big(self->fd));
	ASSERT_EQ(FDR_STATE_UNINITIALIZED, state_of(fb));
	ASSERT_EQ(FDR_STATE_UNINITIALIZED, state_of(self->fd));
	ASSERT_EQ(FDR_STATE_INITIALIZED, state_of(fa));

	/* Freed memory counts no more. */
	ASSERT_EQ(0, fdrt_ioctl(fa, FDR_IOC_FINALIZE));
	ASSERT_EQ(0, fdrt_ioctl(fa, FDR_IOC_RESET));
	ASSERT_EQ(0, init_big(fb));
	caps_restore(&saved);
	close(fa);
	close(fb);
}

/* Attach "crash-a", take a buffer as a writer does, then die. */
static int writer_dies(void *arg)
{
	const struct rlimit zero = { 0, 0 };
	uint32_t expect = FDR_BUF_FREE;
	struct fdr_buffer_desc *d;
	struct fdr_control *c;
	size_t len;
	int fd = fdrt_open();

	(void)arg;
	setrlimit(RLIMIT_CORE, &zero);
	if (fd < 0 || attach(fd, "crash-a"))
		return 1;
	c = fdrt_map(fd, PROT_READ | PROT_WRITE, &len);
	if (!c)
		return 2;
	d = fdrt_desc(c, 0);
	if (!__atomic_compare_exchange_n(&d->state, &expect, FDR_BUF_HELD, 0,
					 __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE))
		return 3;
	d->owner_tid = gettid();
	d->owner_pid = getpid();
	d->generation = c->generation;
	raise(SIGSEGV);
	return 4;
}

TEST_F(dev, killed_writer_finalizes_only_its_session)
{
	struct fdr_status sa;
	int fa, fb, status;
	pid_t pid;

	REQUIRE_DEV();
	fa = fdrt_session_new("crash-a");
	fb = fdrt_session_new("crash-b");
	ASSERT_LE(0, fa);
	ASSERT_LE(0, fb);
	ASSERT_EQ(0, fdrt_init(fa, 4096, 1, FDR_INIT_NO_SCHED));
	ASSERT_EQ(0, fdrt_init(fb, 4096, 1, FDR_INIT_NO_SCHED));
	ASSERT_EQ(0, fdrt_init_default(self->fd, FDR_INIT_NO_SCHED));
	pid = fdrt_spawn(writer_dies, NULL);
	ASSERT_LT(0, pid);
	status = fdrt_wait(pid);
	ASSERT_TRUE(WIFSIGNALED(status));
	ASSERT_EQ(SIGSEGV, WTERMSIG(status));

	ASSERT_EQ(0, fdrt_status(fa, &sa));
	ASSERT_EQ(FDR_STATE_FINALIZED, sa.state);
	ASSERT_EQ(FDR_FINALIZE_CRASH, sa.finalize_reason);
	ASSERT_EQ(pid, sa.finalize_pid);
	ASSERT_EQ(1, sa.buffers_reclaimed);
	ASSERT_EQ(FDR_STATE_INITIALIZED, state_of(fb));
	ASSERT_EQ(FDR_STATE_INITIALIZED, state_of(self->fd));
	close(fa);
	close(fb);
}

TEST_HARNESS_MAIN
