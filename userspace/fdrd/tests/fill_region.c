// SPDX-License-Identifier: MIT
/*
 * fill_region.c - test helper: write records into an embedded region the
 * way a libfdr writer does (take a descriptor by seq, write the bytes,
 * publish extents, release), without libfdr's record path, so the daemon
 * can be tested with exactly known contents.
 *
 *   fill_region NAME BUFFERS PAIRS [TID|each]
 *
 * fills BUFFERS buffers (cycling over the region's buffers, the oldest
 * first: a full ring keeps the newest), each with the preamble and up to
 * PAIRS Enter/Exit pairs.  Function ids are the global buffer number + 1,
 * so a log shows which buffers survived.  Prints "seq fid" per buffer.
 * TID "each" gives buffer k its own thread id, k + 1 (a region with as
 * many threads as buffers).
 */
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/mman.h>
#include <sys/stat.h>

#include <linux/fdr.h>
#include <linux/fdr_log.h>

static void put_md(uint8_t *p, unsigned int kind)
{
	memset(p, 0, 16);
	p[0] = FDR_MD_FIRST_BYTE(kind);
}

/* Preamble + pairs; returns the bytes written. */
static uint64_t write_buffer(uint8_t *buf, uint64_t size, int32_t tid,
			     uint16_t cpu, uint64_t tsc, int32_t fid, long pairs)
{
	uint64_t off = 0, sec = 1700000000;
	uint32_t usec = 1, w0, delta;

	put_md(buf, FDR_MD_NEW_BUFFER);
	memcpy(buf + 1, &tid, 4);
	put_md(buf + 16, FDR_MD_WALLTIME);
	memcpy(buf + 17, &sec, 8);
	memcpy(buf + 25, &usec, 4);
	put_md(buf + 32, FDR_MD_NEW_CPU_ID);
	memcpy(buf + 33, &cpu, 2);
	memcpy(buf + 35, &tsc, 8);
	off = 48;
	for (long i = 0; i < pairs && off + 16 <= size; i++) {
		w0 = FDR_FN_WORD0(FDR_FN_ENTER, fid);
		delta = 10;
		memcpy(buf + off, &w0, 4);
		memcpy(buf + off + 4, &delta, 4);
		w0 = FDR_FN_WORD0(FDR_FN_EXIT, fid);
		memcpy(buf + off + 8, &w0, 4);
		memcpy(buf + off + 12, &delta, 4);
		off += 16;
	}
	return off;
}

int main(int argc, char **argv)
{
	char path[256];
	struct stat st;
	struct fdr_control *c;
	struct fdr_buffer_desc *d;
	long nbuf, pairs;
	int32_t tid;
	int fd, each;

	if (argc < 4) {
		fprintf(stderr, "usage: fill_region NAME BUFFERS PAIRS [TID|each]\n");
		return 2;
	}
	nbuf = atol(argv[2]);
	pairs = atol(argv[3]);
	each = argc > 4 && !strcmp(argv[4], "each");
	tid = argc > 4 ? atoi(argv[4]) : getpid();
	snprintf(path, sizeof(path), "/dev/shm/fdr-%s", argv[1]);
	fd = open(path, O_RDWR);
	if (fd < 0 || fstat(fd, &st)) {
		perror(path);
		return 1;
	}
	c = mmap(NULL, (size_t)st.st_size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (c == MAP_FAILED || c->state != FDR_STATE_INITIALIZED) {
		fprintf(stderr, "%s: not mapped or not INITIALIZED\n", path);
		return 1;
	}
	d = (struct fdr_buffer_desc *)((uint8_t *)c + c->descs_offset);
	for (long k = 0; k < nbuf; k++) {
		uint64_t seq = __atomic_fetch_add(&c->next_seq, 1, __ATOMIC_RELAXED);
		uint32_t i = (uint32_t)(seq % c->nr_buffers);
		uint8_t *buf = (uint8_t *)c + c->control_size + i * c->buffer_size;
		uint64_t ext;

		if (each)
			tid = (int32_t)k + 1;
		__atomic_store_n(&d[i].state, FDR_BUF_HELD, __ATOMIC_RELAXED);
		d[i].owner_tid = tid;
		d[i].owner_pid = getpid();
		d[i].generation = c->generation;
		d[i].seq = seq;
		__atomic_store_n(&d[i].extents, 0, __ATOMIC_RELEASE);
		ext = write_buffer(buf, c->buffer_size, tid, (uint16_t)(i % 4),
				   1000 + seq * 100000, (int32_t)(k + 1), pairs);
		__atomic_store_n(&d[i].extents, ext, __ATOMIC_RELEASE);
		__atomic_store_n(&d[i].state, FDR_BUF_RELEASED, __ATOMIC_RELEASE);
		printf("%llu %ld\n", (unsigned long long)seq, k + 1);
	}
	return 0;
}
