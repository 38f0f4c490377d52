// SPDX-License-Identifier: GPL-2.0
/*
 * fdr_access_test.c - who may open /dev/fdr (default module parameters):
 * root only.  An unprivileged user is refused by the node's mode, and
 * still refused by the module when the node is made world-accessible.
 * fdr_module_test.c covers dev_gid and dev_mode.
 */
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include "kselftest_harness.h"
#include "fdr_test_lib.h"

#define NOBODY 65534

/* In a child: become nobody (no capabilities), open, report errno. */
static int open_as_nobody(void *arg)
{
	int fd;

	(void)arg;
	if (setgroups(0, NULL) || setgid(NOBODY) || setuid(NOBODY))
		return 100;
	fd = open(FDRT_DEV, O_RDWR);
	if (fd >= 0)
		return 0;
	return errno;
}

static int open_errno_as_nobody(void)
{
	pid_t pid = fdrt_spawn(open_as_nobody, NULL);
	int status = fdrt_wait(pid);

	return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

TEST(root_only_by_default)
{
	struct stat sb;
	int fd = fdrt_open();

	if (fd == -ENOENT)
		SKIP(return, "%s absent (is fdr.ko loaded?)", FDRT_DEV);
	ASSERT_LE(0, fd);
	close(fd);
	ASSERT_EQ(0, stat(FDRT_DEV, &sb));
	ASSERT_TRUE(S_ISCHR(sb.st_mode));
	ASSERT_EQ(0600, sb.st_mode & 07777);
	ASSERT_EQ(0, sb.st_uid);
	ASSERT_EQ(0, sb.st_gid);
	ASSERT_EQ(0600, fdrt_param("dev_mode"));
	ASSERT_EQ(0, fdrt_param("dev_gid"));
	ASSERT_EQ(EACCES, open_errno_as_nobody());
}

/* chmod 0666 on the node is not enough: the module wants privilege. */
TEST(module_refuses_unprivileged)
{
	struct stat sb;
	int err;

	if (stat(FDRT_DEV, &sb))
		SKIP(return, "%s absent (is fdr.ko loaded?)", FDRT_DEV);
	ASSERT_EQ(0, chmod(FDRT_DEV, 0666));
	err = open_errno_as_nobody();
	ASSERT_EQ(0, chmod(FDRT_DEV, sb.st_mode & 07777));
	ASSERT_EQ(EPERM, err);
}

TEST_HARNESS_MAIN
