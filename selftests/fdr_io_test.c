// SPDX-License-Identifier: GPL-2.0
/*
 * fdr_io_test.c - the mapped buffers are ordinary pages to the rest of
 * the kernel: another process reads them with process_vm_readv() (the
 * page-pinning path O_DIRECT also takes), io_uring writes them to a file
 * (what fdrd does), and O_DIRECT writes them where the filesystem allows.
 */
#include <errno.h>
#include <fcntl.h>
#include <liburing.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/uio.h>
#include <sys/wait.h>
#include <unistd.h>
#include "kselftest_harness.h"
#include "fdr_fixture.h"

/* Buffer 0 of a fresh region, filled with a pattern. */
static char *patterned_buffer(struct __test_metadata *_metadata, int fd,
			      struct fdr_control **c, size_t *len)
{
	char *b;
	size_t i;

	*c = fdrt_map(fd, PROT_READ | PROT_WRITE, len);
	if (!*c)
		return NULL;
	b = (char *)*c + fdrt_desc(*c, 0)->offset;
	for (i = 0; i < (*c)->buffer_size; i++)
		b[i] = (char)(i * 7 + 3);
	return b;
}

struct remote {
	pid_t parent;
	void *addr;
	size_t len;
	const char *expect;
};

static int read_remote(void *arg)
{
	struct remote *r = arg;
	struct iovec local, remote = { r->addr, r->len };
	char *copy = malloc(r->len);
	ssize_t n;

	if (!copy)
		return 10;
	local = (struct iovec){ copy, r->len };
	n = process_vm_readv(r->parent, &local, 1, &remote, 1, 0);
	if (n != (ssize_t)r->len)
		return 11;
	return memcmp(copy, r->expect, r->len) ? 12 : 0;
}

TEST_F(dev, process_vm_readv_reads_buffer)
{
	struct fdr_control *c;
	struct remote r;
	size_t len;
	char *b;
	pid_t pid;

	REQUIRE_DEV();
	ASSERT_EQ(0, fdrt_init_default(self->fd, 0));
	b = patterned_buffer(_metadata, self->fd, &c, &len);
	ASSERT_NE(NULL, b);
	r = (struct remote){ getpid(), b, c->buffer_size, b };
	pid = fdrt_spawn(read_remote, &r);
	ASSERT_LT(0, pid);
	ASSERT_EQ(0, fdrt_wait(pid));
	ASSERT_EQ(0, munmap(c, len));
}

/* Write @n bytes at @src to @path with one io_uring write; 0 or -errno. */
static int uring_write_file(const char *path, const void *src, size_t n,
			    int flags)
{
	struct io_uring ring;
	struct io_uring_sqe *sqe;
	struct io_uring_cqe *cqe;
	int fd, err;

	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | flags, 0600);
	if (fd < 0)
		return -errno;
	err = io_uring_queue_init(4, &ring, 0);
	if (err) {
		close(fd);
		return err;
	}
	sqe = io_uring_get_sqe(&ring);
	io_uring_prep_write(sqe, fd, src, n, 0);
	err = io_uring_submit_and_wait(&ring, 1);
	if (err >= 0)
		err = io_uring_wait_cqe(&ring, &cqe);
	if (!err) {
		err = cqe->res == (int)n ? 0 : cqe->res < 0 ? cqe->res : -EIO;
		io_uring_cqe_seen(&ring, cqe);
	}
	io_uring_queue_exit(&ring);
	close(fd);
	return err;
}

static int file_equals(const char *path, const char *want, size_t n)
{
	char *got = malloc(n + 1);
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	ssize_t r = fd < 0 ? -1 : read(fd, got, n + 1);
	int same = got && r == (ssize_t)n && !memcmp(got, want, n);

	if (fd >= 0)
		close(fd);
	free(got);
	return same;
}

TEST_F(dev, io_uring_writes_buffer)
{
	const char *path = "/tmp/fdr_io_test.uring";
	struct fdr_control *c;
	size_t len;
	char *b;
	int err;

	REQUIRE_DEV();
	ASSERT_EQ(0, fdrt_init_default(self->fd, 0));
	b = patterned_buffer(_metadata, self->fd, &c, &len);
	ASSERT_NE(NULL, b);
	err = uring_write_file(path, b, c->buffer_size, 0);
	if (err == -ENOSYS || err == -EPERM)
		SKIP(return, "io_uring unavailable: %s", strerror(-err));
	ASSERT_EQ(0, err);
	ASSERT_TRUE(file_equals(path, b, c->buffer_size));
	unlink(path);
	ASSERT_EQ(0, munmap(c, len));
}

/*
 * Fixed buffers are the kernel's call, not ours: 6.1 refuses to pin any
 * file mapping but shmem/hugetlbfs for IORING_REGISTER_BUFFERS.  Report
 * what this kernel does so fdrd's choice (plain writes) stays informed.
 */
TEST_F(dev, io_uring_fixed_buffers_report)
{
	struct fdr_control *c;
	struct io_uring ring;
	struct iovec iov;
	size_t len;
	char *b;
	int err;

	REQUIRE_DEV();
	ASSERT_EQ(0, fdrt_init_default(self->fd, 0));
	b = patterned_buffer(_metadata, self->fd, &c, &len);
	ASSERT_NE(NULL, b);
	if (io_uring_queue_init(4, &ring, 0))
		SKIP(return, "io_uring unavailable");
	iov = (struct iovec){ b, c->buffer_size };
	err = io_uring_register_buffers(&ring, &iov, 1);
	TH_LOG("IORING_REGISTER_BUFFERS on the mapping: %s",
	       err ? strerror(-err) : "accepted");
	ASSERT_TRUE(err == 0 || err == -EOPNOTSUPP);
	io_uring_queue_exit(&ring);
	ASSERT_EQ(0, munmap(c, len));
}

TEST_F(dev, o_direct_writes_buffer)
{
	/* tmpfs takes O_DIRECT only from 6.6; the VM's 9p /out takes it. */
	const char *dirs[] = { "/tmp", "/root", "/out" };
	struct fdr_control *c;
	char path[64];
	size_t len, i;
	char *b;
	int fd = -1, err;

	REQUIRE_DEV();
	ASSERT_EQ(0, fdrt_init_default(self->fd, 0));
	b = patterned_buffer(_metadata, self->fd, &c, &len);
	ASSERT_NE(NULL, b);
	for (i = 0; i < sizeof(dirs) / sizeof(dirs[0]) && fd < 0; i++) {
		snprintf(path, sizeof(path), "%s/fdr_io_test.direct", dirs[i]);
		fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_DIRECT |
			  O_CLOEXEC, 0600);
	}
	if (fd < 0)
		SKIP(return, "no filesystem here takes O_DIRECT");
	err = write(fd, b, c->buffer_size) == (ssize_t)c->buffer_size ?
	      0 : errno;
	close(fd);
	ASSERT_EQ(0, err);
	ASSERT_TRUE(file_equals(path, b, c->buffer_size));
	unlink(path);
	ASSERT_EQ(0, munmap(c, len));
}

TEST_HARNESS_MAIN
