// SPDX-License-Identifier: GPL-2.0
/*
 * fdr_module_test.c - loading and unloading fdr.ko: unload is refused
 * while a file or a mapping is alive, the device comes and goes with the
 * module, and the module parameters do what they say.  Every test leaves
 * the module loaded with its default parameters.
 */
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>
#include "kselftest_harness.h"
#include "fdr_test_lib.h"

#define TEST_GID 4242
#define NOBODY 65534

static int module_loaded(void)
{
	return access("/sys/module/fdr", F_OK) == 0;
}

/* Put the module back with default parameters (or @params). */
static int reload(const char *params)
{
	int err = fdrt_unload_module();

	if (err && err != -ENOENT)
		return err;
	return fdrt_load_module(params);
}

/* Users other than this test (a daemon left running) block unloading. */
static long long module_refcnt(void)
{
	char buf[32] = "";
	FILE *f = fopen("/sys/module/fdr/refcnt", "r");

	if (!f)
		return -1;
	if (!fgets(buf, sizeof(buf), f))
		buf[0] = '\0';
	fclose(f);
	return atoll(buf);
}

#define REQUIRE_MODULE() do {						\
	if (!module_loaded())						\
		SKIP(return, "fdr.ko is not loaded");			\
	if (module_refcnt() != 0)					\
		SKIP(return, "fdr.ko is in use elsewhere (refcnt %lld)", \
		     module_refcnt());					\
	if (access(FDRT_KO, R_OK))					\
		SKIP(return, "%s missing: cannot reload", FDRT_KO);	\
} while (0)

TEST(unload_and_load)
{
	struct stat sb;
	int fd;

	REQUIRE_MODULE();
	ASSERT_EQ(0, fdrt_unload_module());
	ASSERT_FALSE(module_loaded());
	ASSERT_EQ(-1, stat(FDRT_DEV, &sb));
	ASSERT_EQ(ENOENT, errno);
	ASSERT_EQ(0, fdrt_load_module(""));
	ASSERT_TRUE(module_loaded());
	ASSERT_EQ(0, stat(FDRT_DEV, &sb));
	ASSERT_TRUE(S_ISCHR(sb.st_mode));
	/* Loading twice is refused; the first instance keeps working. */
	ASSERT_EQ(-EEXIST, fdrt_load_module(""));
	fd = fdrt_open();
	ASSERT_LE(0, fd);
	close(fd);
}

TEST(unload_refused_while_open)
{
	int fd;

	REQUIRE_MODULE();
	fd = fdrt_open();
	ASSERT_LE(0, fd);
	ASSERT_EQ(-EWOULDBLOCK, fdrt_unload_module());
	ASSERT_TRUE(module_loaded());
	close(fd);
	ASSERT_EQ(0, reload(""));
}

/* A mapping pins the module after its fd is closed, even across RESET. */
TEST(unload_refused_while_mapped)
{
	struct fdr_control *c;
	size_t len;
	int fd;

	REQUIRE_MODULE();
	fd = fdrt_open();
	ASSERT_LE(0, fd);
	ASSERT_EQ(0, fdrt_to_uninitialized(fd));
	ASSERT_EQ(0, fdrt_init_default(fd, 0));
	c = fdrt_map(fd, PROT_READ | PROT_WRITE, &len);
	ASSERT_NE(NULL, c);
	ASSERT_EQ(0, fdrt_ioctl(fd, FDR_IOC_FINALIZE));
	ASSERT_EQ(0, fdrt_ioctl(fd, FDR_IOC_RESET));
	close(fd);
	ASSERT_EQ(-EWOULDBLOCK, fdrt_unload_module());
	ASSERT_TRUE(module_loaded());
	/* The pages are still there and writable. */
	((char *)c)[len - 1] = 7;
	ASSERT_EQ(7, ((char *)c)[len - 1]);
	ASSERT_EQ(FDR_CONTROL_MAGIC, c->magic);
	ASSERT_EQ(0, munmap(c, len));
	ASSERT_EQ(0, fdrt_unload_module());
	ASSERT_FALSE(module_loaded());
	ASSERT_EQ(0, fdrt_load_module(""));
}

/* A region left INITIALIZED is freed by unload; a reload starts fresh. */
TEST(unload_with_region_starts_fresh)
{
	struct fdr_status st;
	int fd;

	REQUIRE_MODULE();
	fd = fdrt_open();
	ASSERT_LE(0, fd);
	ASSERT_EQ(0, fdrt_to_uninitialized(fd));
	ASSERT_EQ(0, fdrt_init_default(fd, 0));
	close(fd);
	ASSERT_EQ(0, reload(""));
	fd = fdrt_open();
	ASSERT_LE(0, fd);
	ASSERT_EQ(0, fdrt_status(fd, &st));
	ASSERT_EQ(FDR_STATE_UNINITIALIZED, st.state);
	ASSERT_EQ(0, st.generation);
	close(fd);
}

TEST(default_geometry_params)
{
	struct fdr_status st;
	int fd;

	REQUIRE_MODULE();
	ASSERT_EQ(0, reload("buffer_size=8192 buffers_per_cpu=3"));
	fd = fdrt_open();
	ASSERT_LE(0, fd);
	ASSERT_EQ(0, fdrt_status(fd, &st));
	ASSERT_EQ(8192, st.default_buffer_size);
	ASSERT_EQ(3, st.default_buffers_per_cpu);
	ASSERT_EQ(0, fdrt_init_default(fd, 0));
	ASSERT_EQ(0, fdrt_status(fd, &st));
	ASSERT_EQ(8192, st.buffer_size);
	ASSERT_EQ(st.nr_cpus * 3, st.nr_buffers);
	close(fd);
	ASSERT_EQ(0, reload(""));
	ASSERT_EQ(65536, fdrt_param("buffer_size"));
	ASSERT_EQ(8, fdrt_param("buffers_per_cpu"));
}

/* crash_finalize=0: a writer's crash reclaims but does not finalize. */
static int crash_child(void *arg)
{
	struct fdr_control *c;
	struct fdr_buffer_desc *d;
	size_t len;
	int fd = fdrt_open();

	(void)arg;
	if (fd < 0)
		return 10;
	c = fdrt_map(fd, PROT_READ | PROT_WRITE, &len);
	if (!c)
		return 11;
	d = fdrt_desc(c, 0);
	d->owner_pid = getpid();
	__atomic_store_n(&d->state, FDR_BUF_HELD, __ATOMIC_RELEASE);
	kill(getpid(), SIGKILL);
	return 12;
}

TEST(crash_finalize_param_off)
{
	struct fdr_status st;
	pid_t pid;
	int fd, status;

	REQUIRE_MODULE();
	ASSERT_EQ(0, reload("crash_finalize=0"));
	fd = fdrt_open();
	ASSERT_LE(0, fd);
	ASSERT_EQ(0, fdrt_init_default(fd, 0));
	ASSERT_EQ(0, fdrt_status(fd, &st));
	ASSERT_EQ(0, st.flags & FDR_CTL_CRASH_FINALIZE);
	pid = fdrt_spawn(crash_child, NULL);
	status = fdrt_wait(pid);
	ASSERT_TRUE(WIFSIGNALED(status));
	ASSERT_EQ(0, fdrt_status(fd, &st));
	ASSERT_EQ(FDR_STATE_INITIALIZED, st.state);
	ASSERT_EQ(1, st.buffers_reclaimed);
	close(fd);
	ASSERT_EQ(0, reload(""));
}

/* In a child: become nobody with @gid as a supplementary group, open. */
static int open_as_member(void *arg)
{
	gid_t gid = *(gid_t *)arg;
	int fd;

	if (setgroups(gid ? 1 : 0, &gid) || setgid(NOBODY) || setuid(NOBODY))
		return 100;
	fd = open(FDRT_DEV, O_RDWR);
	if (fd < 0)
		return errno;
	/* A member drives the recorder like root does. */
	if (fdrt_init_default(fd, 0) || fdrt_ioctl(fd, FDR_IOC_FINALIZE) ||
	    fdrt_ioctl(fd, FDR_IOC_RESET))
		return 101;
	return 0;
}

static int open_result(gid_t gid)
{
	int status = fdrt_wait(fdrt_spawn(open_as_member, &gid));

	return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

/* dev_gid + dev_mode: members of the group get in, others do not. */
TEST(dev_gid_members_only)
{
	struct stat sb;

	REQUIRE_MODULE();
	ASSERT_EQ(0, reload("dev_gid=4242 dev_mode=0660"));
	ASSERT_EQ(0, stat(FDRT_DEV, &sb));
	ASSERT_EQ(0660, sb.st_mode & 07777);
	ASSERT_EQ(0660, fdrt_param("dev_mode"));
	ASSERT_EQ(TEST_GID, fdrt_param("dev_gid"));
	/* What a udev rule does for the group; the module cannot. */
	ASSERT_EQ(0, chown(FDRT_DEV, 0, TEST_GID));
	ASSERT_EQ(0, open_result(TEST_GID));
	ASSERT_EQ(EACCES, open_result(0));
	/* Node opened up to everyone: the module still checks the group. */
	ASSERT_EQ(0, chmod(FDRT_DEV, 0666));
	ASSERT_EQ(EPERM, open_result(TEST_GID + 1));
	ASSERT_EQ(0, reload(""));
	ASSERT_EQ(0, stat(FDRT_DEV, &sb));
	ASSERT_EQ(0600, sb.st_mode & 07777);
}

TEST_HARNESS_MAIN
