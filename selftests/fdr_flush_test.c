// SPDX-License-Identifier: GPL-2.0
/*
 * fdr_flush_test.c - a flush belongs to the open file that began it:
 * DONE/ABORT from any other file get EBUSY, the release of that file
 * (its last descriptor or mapping) aborts the flush so the data can be
 * flushed again, and root can force an abort.  fdrd killed with SIGKILL
 * mid-flush, then a restarted fdrd.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include "kselftest_harness.h"
#include "fdr_fixture.h"

static uint32_t flush_state(int fd)
{
	struct fdr_status st;

	return fdrt_status(fd, &st) ? ~0u : st.flush_state;
}

/* INIT + FINALIZE on @fd: the data a flush is about. */
static void finalized(struct __test_metadata *_metadata, int fd)
{
	ASSERT_EQ(0, fdrt_init_default(fd, 0));
	ASSERT_EQ(0, fdrt_ioctl(fd, FDR_IOC_FINALIZE));
}

TEST_F(dev, only_the_beginning_file_ends_it)
{
	int other, copy;

	REQUIRE_DEV();
	finalized(_metadata, self->fd);
	other = fdrt_open();
	ASSERT_LE(0, other);
	ASSERT_EQ(0, fdrt_ioctl(other, FDR_IOC_FLUSH_BEGIN));
	/* Another open file, even of the same process: EBUSY, no change. */
	ASSERT_EQ(-EBUSY, fdrt_ioctl(self->fd, FDR_IOC_FLUSH_DONE));
	ASSERT_EQ(-EBUSY, fdrt_ioctl(self->fd, FDR_IOC_FLUSH_ABORT));
	ASSERT_EQ(-EBUSY, fdrt_ioctl(self->fd, FDR_IOC_FLUSH_BEGIN));
	ASSERT_EQ(FDR_FLUSH_FLUSHING, flush_state(self->fd));
	/* A dup is the same open file. */
	copy = dup(other);
	ASSERT_LE(0, copy);
	ASSERT_EQ(0, fdrt_ioctl(copy, FDR_IOC_FLUSH_DONE));
	ASSERT_EQ(FDR_FLUSH_FLUSHED, flush_state(self->fd));
	/* Flushing again belongs to whoever begins it this time. */
	ASSERT_EQ(0, fdrt_ioctl(self->fd, FDR_IOC_FLUSH_BEGIN));
	ASSERT_EQ(-EBUSY, fdrt_ioctl(other, FDR_IOC_FLUSH_ABORT));
	ASSERT_EQ(-EBUSY, fdrt_ioctl(copy, FDR_IOC_FLUSH_DONE));
	ASSERT_EQ(0, fdrt_ioctl(self->fd, FDR_IOC_FLUSH_ABORT));
	ASSERT_EQ(FDR_FLUSH_NOT_FLUSHING, flush_state(self->fd));
	close(copy);
	close(other);
}

TEST_F(dev, release_aborts_the_flush)
{
	struct pollfd pfd = { .fd = self->fd, .events = POLLIN };
	int other, copy;

	REQUIRE_DEV();
	finalized(_metadata, self->fd);
	other = fdrt_open();
	ASSERT_LE(0, other);
	copy = dup(other);
	ASSERT_LE(0, copy);
	ASSERT_EQ(0, fdrt_ioctl(other, FDR_IOC_FLUSH_BEGIN));
	ASSERT_EQ(0, poll(&pfd, 1, 0));
	/* One descriptor left: the file lives, the flush goes on. */
	ASSERT_EQ(0, close(other));
	ASSERT_EQ(FDR_FLUSH_FLUSHING, flush_state(self->fd));
	ASSERT_EQ(-EBUSY, fdrt_ioctl(self->fd, FDR_IOC_RESET));
	/* The last one: aborted, a flush is wanted again (EPOLLIN). */
	ASSERT_EQ(0, close(copy));
	ASSERT_EQ(FDR_FLUSH_NOT_FLUSHING, flush_state(self->fd));
	ASSERT_EQ(1, poll(&pfd, 1, 0));
	ASSERT_EQ(0, fdrt_ioctl(self->fd, FDR_IOC_FLUSH_BEGIN));
	ASSERT_EQ(0, fdrt_ioctl(self->fd, FDR_IOC_FLUSH_DONE));
}

/* A mapping references the file too: the flush lasts until munmap. */
TEST_F(dev, mapping_keeps_the_file)
{
	size_t len;
	void *p;
	int other;

	REQUIRE_DEV();
	finalized(_metadata, self->fd);
	other = fdrt_open();
	ASSERT_LE(0, other);
	p = fdrt_map(other, PROT_READ, &len);
	ASSERT_NE(NULL, p);
	ASSERT_EQ(0, fdrt_ioctl(other, FDR_IOC_FLUSH_BEGIN));
	ASSERT_EQ(0, close(other));
	ASSERT_EQ(FDR_FLUSH_FLUSHING, flush_state(self->fd));
	ASSERT_EQ(0, munmap(p, len));
	ASSERT_EQ(FDR_FLUSH_NOT_FLUSHING, flush_state(self->fd));
}

/* What a flusher does: open, FLUSH_BEGIN, maybe fork a holder, wait. */
struct flusher {
	int with_child;
	int ready[2];
	pid_t child;		/* the holder it forked, or 0 */
};

static int flusher_main(void *arg)
{
	struct flusher *f = arg;
	int fd = fdrt_open();
	pid_t child = 0;

	if (fd < 0 || fdrt_ioctl(fd, FDR_IOC_FLUSH_BEGIN))
		return 10;
	if (f->with_child) {
		child = fork();
		if (child < 0)
			return 12;
		/* Inherits fd; lives until the test kills it. */
		while (child == 0)
			pause();
	}
	if (write(f->ready[1], &child, sizeof(child)) != sizeof(child))
		return 11;
	for (;;)
		pause();
}

static pid_t start_flusher(struct __test_metadata *_metadata,
			   struct flusher *f)
{
	pid_t pid;

	ASSERT_EQ(0, pipe(f->ready));
	pid = fdrt_spawn(flusher_main, f);
	ASSERT_LT(0, pid);
	close(f->ready[1]);
	ASSERT_EQ(sizeof(f->child), read(f->ready[0], &f->child,
					 sizeof(f->child)));
	close(f->ready[0]);
	return pid;
}

TEST_F(dev, sigkill_of_the_flusher_aborts)
{
	struct flusher f = { .with_child = 0 };
	pid_t pid;

	REQUIRE_DEV();
	finalized(_metadata, self->fd);
	pid = start_flusher(_metadata, &f);
	ASSERT_EQ(FDR_FLUSH_FLUSHING, flush_state(self->fd));
	ASSERT_EQ(0, kill(pid, SIGKILL));
	ASSERT_EQ(SIGKILL, WTERMSIG(fdrt_wait(pid)));
	ASSERT_EQ(FDR_FLUSH_NOT_FLUSHING, flush_state(self->fd));
	/* The next flusher flushes the same data. */
	ASSERT_EQ(0, fdrt_ioctl(self->fd, FDR_IOC_FLUSH_BEGIN));
	ASSERT_EQ(0, fdrt_ioctl(self->fd, FDR_IOC_FLUSH_DONE));
}

TEST_F(dev, sigkill_with_a_child_holding_the_fd)
{
	struct flusher f = { .with_child = 1 };
	pid_t pid;

	REQUIRE_DEV();
	/* The orphaned holder is reparented to us, so we can reap it. */
	ASSERT_EQ(0, prctl(PR_SET_CHILD_SUBREAPER, 1));
	finalized(_metadata, self->fd);
	pid = start_flusher(_metadata, &f);
	ASSERT_LT(0, f.child);
	ASSERT_EQ(0, kill(pid, SIGKILL));
	ASSERT_EQ(SIGKILL, WTERMSIG(fdrt_wait(pid)));
	/* The child still holds the open file: still its flush. */
	usleep(100 * 1000);
	ASSERT_EQ(FDR_FLUSH_FLUSHING, flush_state(self->fd));
	ASSERT_EQ(-EBUSY, fdrt_ioctl(self->fd, FDR_IOC_FLUSH_DONE));
	/* The holder dies too: the last close aborts. */
	ASSERT_EQ(0, kill(f.child, SIGKILL));
	ASSERT_EQ(SIGKILL, WTERMSIG(fdrt_wait(f.child)));
	ASSERT_EQ(FDR_FLUSH_NOT_FLUSHING, flush_state(self->fd));
	ASSERT_EQ(0, fdrt_ioctl(self->fd, FDR_IOC_FLUSH_BEGIN));
	ASSERT_EQ(0, fdrt_ioctl(self->fd, FDR_IOC_FLUSH_DONE));
}

TEST_F(dev, forced_abort_is_for_root)
{
	struct flusher f = { .with_child = 0 };
	pid_t pid, user;
	int status;

	REQUIRE_DEV();
	ASSERT_EQ(-EBUSY, fdrt_ioctl(self->fd, FDR_IOC_FLUSH_FORCE_ABORT));
	finalized(_metadata, self->fd);
	ASSERT_EQ(-EBUSY, fdrt_ioctl(self->fd, FDR_IOC_FLUSH_FORCE_ABORT));
	pid = start_flusher(_metadata, &f);
	/* An opener without CAP_SYS_ADMIN (opened as root, then nobody). */
	user = fork();
	ASSERT_LE(0, user);
	if (user == 0) {
		int err;

		if (setresgid(65534, 65534, 65534) ||
		    setresuid(65534, 65534, 65534))
			_exit(10);
		err = fdrt_ioctl(self->fd, FDR_IOC_FLUSH_FORCE_ABORT);
		_exit(err == -EPERM ? 0 : 11);
	}
	ASSERT_EQ(0, waitpid(user, &status, 0) == user ? status : -1);
	ASSERT_EQ(FDR_FLUSH_FLUSHING, flush_state(self->fd));
	/* Root, from any file. */
	ASSERT_EQ(0, fdrt_ioctl(self->fd, FDR_IOC_FLUSH_FORCE_ABORT));
	ASSERT_EQ(FDR_FLUSH_NOT_FLUSHING, flush_state(self->fd));
	/* The old owner's file no longer owns anything. */
	ASSERT_EQ(0, fdrt_ioctl(self->fd, FDR_IOC_FLUSH_BEGIN));
	kill(pid, SIGKILL);
	fdrt_wait(pid);
	ASSERT_EQ(FDR_FLUSH_FLUSHING, flush_state(self->fd));
	ASSERT_EQ(0, fdrt_ioctl(self->fd, FDR_IOC_FLUSH_DONE));
}

/* fdrctl flush-abort ends another file's flush, and says it forced it. */
TEST_F(dev, fdrctl_flush_abort_forces)
{
	struct flusher f = { .with_child = 0 };
	char out[256] = "";
	size_t n;
	FILE *p;
	pid_t pid;

	REQUIRE_DEV();
	if (access("/bin/fdrctl", X_OK))
		SKIP(return, "no fdrctl in the guest");
	finalized(_metadata, self->fd);
	pid = start_flusher(_metadata, &f);
	p = popen("/bin/fdrctl flush-abort 2>&1", "r");
	ASSERT_NE(NULL, p);
	n = fread(out, 1, sizeof(out) - 1, p);
	out[n] = '\0';
	ASSERT_EQ(0, pclose(p)) TH_LOG("fdrctl: %s", out);
	ASSERT_NE(NULL, strstr(out, "forced")) TH_LOG("fdrctl: %s", out);
	ASSERT_EQ(FDR_FLUSH_NOT_FLUSHING, flush_state(self->fd));
	kill(pid, SIGKILL);
	fdrt_wait(pid);
}

/* The fdrd binary the VM stage brings, or NULL. */
static const char *fdrd_path(void)
{
	static const char *const paths[] = { "/bin/fdrd", "/reliability/bin/fdrd" };
	unsigned int i;

	for (i = 0; i < sizeof(paths) / sizeof(paths[0]); i++)
		if (!access(paths[i], X_OK))
			return paths[i];
	return NULL;
}

static pid_t run_fdrd(const char *fdrd, const char *dir)
{
	pid_t pid = fork();

	if (pid == 0) {
		int null = open("/dev/null", O_WRONLY);

		if (null >= 0) {
			dup2(null, 1);
			dup2(null, 2);
		}
		execl(fdrd, "fdrd", "--foreground", "--once", "--grace-ms", "0",
		      "-o", dir, (char *)NULL);
		_exit(127);
	}
	return pid;
}

/*
 * fdrd --once killed with SIGKILL while FLUSHING (caught by polling
 * STATUS); then a new fdrd --once must flush the same data.
 */
TEST_F_TIMEOUT(dev, fdrd_sigkill_mid_flush_then_restart, 120)
{
	char dir[] = "/tmp/fdr-flush-XXXXXX";
	const char *fdrd = fdrd_path();
	int attempt, caught = 0, status;
	struct fdr_status st;
	pid_t pid;

	REQUIRE_DEV();
	if (!fdrd)
		SKIP(return, "no fdrd in the guest");
	ASSERT_NE(NULL, mkdtemp(dir));
	for (attempt = 0; attempt < 20 && !caught; attempt++) {
		ASSERT_EQ(0, fdrt_to_uninitialized(self->fd));
		ASSERT_EQ(0, fdrt_init(self->fd, 65536, 64, 0));
		ASSERT_EQ(0, fdrt_ioctl(self->fd, FDR_IOC_FINALIZE));
		pid = run_fdrd(fdrd, dir);
		ASSERT_LT(0, pid);
		for (;;) {
			ASSERT_EQ(0, fdrt_status(self->fd, &st));
			if (st.flush_state != FDR_FLUSH_NOT_FLUSHING)
				break;
			if (waitpid(pid, &status, WNOHANG) == pid) {
				pid = 0;
				break;
			}
		}
		if (st.flush_state == FDR_FLUSH_FLUSHING && pid) {
			kill(pid, SIGKILL);
			caught = 1;
		}
		if (pid)
			waitpid(pid, &status, 0);
		/* Too late: fdrd was done already; try again. */
		caught = caught && WIFSIGNALED(status);
	}
	TH_LOG("fdrd killed while FLUSHING at attempt %d", attempt);
	ASSERT_TRUE(caught);
	ASSERT_EQ(0, fdrt_status(self->fd, &st));
	ASSERT_EQ(FDR_STATE_FINALIZED, st.state);
	ASSERT_EQ(FDR_FLUSH_NOT_FLUSHING, st.flush_state);
	/* The restarted fdrd flushes. */
	pid = run_fdrd(fdrd, dir);
	ASSERT_LT(0, pid);
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	ASSERT_TRUE(WIFEXITED(status));
	ASSERT_EQ(0, WEXITSTATUS(status));
	ASSERT_EQ(FDR_FLUSH_FLUSHED, flush_state(self->fd));
	system("rm -rf /tmp/fdr-flush-*");
}

TEST_HARNESS_MAIN
