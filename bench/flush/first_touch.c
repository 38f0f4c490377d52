// SPDX-License-Identifier: MIT
/*
 * first_touch.c - what the flush pays for reading the region through a
 * mapping it has not read through before (bench/flush/README.md, run I).
 *
 * 256 MiB of /dev/shm, written once, then copied to a file in DIR in
 * 64 KiB pieces (fdrd's buffers) three ways, four rounds: pwritev from a
 * mapping made just before, pwritev from the same mapping a second time,
 * and sendfile from the shared memory's descriptor (no user mapping).
 * Each file is removed after its copy.  Wall and CPU ms per copy.
 *
 *   cc -O2 -o first_touch bench/flush/first_touch.c && ./first_touch /var/tmp
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/sendfile.h>
#include <sys/uio.h>
#include <time.h>
#include <unistd.h>

#define SIZE	(256UL << 20)
#define PIECE	(64UL << 10)

static double ms_now(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec * 1e3 + t.tv_nsec / 1e6;
}

static double ms_cpu(void)
{
	struct rusage r;

	getrusage(RUSAGE_SELF, &r);
	return (r.ru_utime.tv_sec + r.ru_stime.tv_sec) * 1e3 +
	       (r.ru_utime.tv_usec + r.ru_stime.tv_usec) / 1e3;
}

/* Copy SIZE bytes to DIR/first_touch.tmp from map (or, if NULL, from shm). */
static void copy(const char *what, const char *dir, const char *map, int shm)
{
	char path[4096];
	double t0, c0;
	int fd;

	snprintf(path, sizeof(path), "%s/first_touch.tmp", dir);
	fd = open(path, O_CREAT | O_TRUNC | O_WRONLY, 0600);
	if (fd < 0) {
		perror(path);
		exit(1);
	}
	t0 = ms_now();
	c0 = ms_cpu();
	for (size_t off = 0; off < SIZE; off += PIECE) {
		struct iovec v = { (void *)(map + off), PIECE };
		off_t o = (off_t)off;
		ssize_t n = map ? pwritev(fd, &v, 1, o) : sendfile(fd, shm, &o, PIECE);

		if (n != (ssize_t)PIECE) {
			perror(what);
			exit(1);
		}
	}
	printf("| %s | %.1f | %.1f |\n", what, ms_now() - t0, ms_cpu() - c0);
	close(fd);
	unlink(path);
}

int main(int argc, char **argv)
{
	const char *dir = argc > 1 ? argv[1] : "/var/tmp";
	int shm = memfd_create("first_touch", 0);
	char *m;

	if (shm < 0 || ftruncate(shm, SIZE)) {
		perror("memfd");
		return 1;
	}
	m = mmap(NULL, SIZE, PROT_READ | PROT_WRITE, MAP_SHARED, shm, 0);
	if (m == MAP_FAILED) {
		perror("mmap");
		return 1;
	}
	memset(m, 7, SIZE);
	munmap(m, SIZE);
	printf("| copy of 256 MiB in 64 KiB pieces | ms | CPU ms |\n|---|---:|---:|\n");
	for (int round = 0; round < 4; round++) {
		m = mmap(NULL, SIZE, PROT_READ, MAP_SHARED, shm, 0);
		copy("pwritev from a new mapping", dir, m, shm);
		copy("pwritev from the same mapping again", dir, m, shm);
		munmap(m, SIZE);
		copy("sendfile from the descriptor", dir, NULL, shm);
	}
	return 0;
}
