// SPDX-License-Identifier: MIT
/*
 * gen_crafted.c - valid XRay FDR v2 logs shaped to find quadratic work
 * in a reader (issue 15, point 4).
 *
 *   gen_crafted orphans N OUT   one thread: N Enters of function 1, then
 *                               N Exits of function 2 (none matches:
 *                               every exit is "without entry" with a
 *                               stack N deep)
 *   gen_crafted threads N OUT   N threads (tids 1..N), one buffer each
 *                               with one Enter/Exit pair of function
 *                               1 + tid % 7
 *   gen_crafted collide N OUT   as threads, but the N tids are chosen so
 *                               that LLVM 19's DenseMap hash of (pid 0,
 *                               tid) has its low 16 bits 0: every thread
 *                               lands in one bucket (a brute-force search,
 *                               ~2^16 tries per tid)
 *   gen_crafted mixed N OUT     N records over 8 threads, switching every
 *                               100: nested calls, exits lost (frames
 *                               unwound), exits without entry, calls
 *                               left open; the same N gives the same log
 *
 * Buffers are 64 KiB (ThreadBufferSize), cut as a writer would: a
 * BufferExtents, NewBuffer, WalltimeMarker (increasing), NewCPUId, then
 * function records with TSC delta 1.  At most 10^6 buffers.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <linux/fdr_log.h>

#define BUFFER_SIZE 65536u
#define PREAMBLE (3 * FDR_METADATA_SIZE)

struct gen {
	FILE *f;
	uint8_t buf[BUFFER_SIZE];
	size_t used;
	int32_t tid;
	uint64_t wall_usec, tsc;
};

static void put_md(uint8_t *p, unsigned int kind)
{
	memset(p, 0, FDR_METADATA_SIZE);
	p[0] = FDR_MD_FIRST_BYTE(kind);
}

static void flush_buffer(struct gen *g)
{
	uint8_t ext[FDR_METADATA_SIZE];
	uint64_t n = g->used;

	if (g->used <= PREAMBLE)
		return;
	put_md(ext, FDR_MD_BUFFER_EXTENTS);
	memcpy(ext + 1, &n, 8);
	fwrite(ext, 1, sizeof(ext), g->f);
	fwrite(g->buf, 1, g->used, g->f);
	g->used = 0;
}

static void start_buffer(struct gen *g, int32_t tid)
{
	/* LLVM orders blocks by "sec < sec && usec < usec": both must grow */
	uint64_t sec = 1700000000 + g->wall_usec;
	uint32_t usec = (uint32_t)(g->wall_usec % 1000000);
	uint16_t cpu = 0;

	flush_buffer(g);
	g->tid = tid;
	g->wall_usec++;
	put_md(g->buf, FDR_MD_NEW_BUFFER);
	memcpy(g->buf + 1, &tid, 4);
	put_md(g->buf + 16, FDR_MD_WALLTIME);
	memcpy(g->buf + 17, &sec, 8);
	memcpy(g->buf + 25, &usec, 4);
	put_md(g->buf + 32, FDR_MD_NEW_CPU_ID);
	memcpy(g->buf + 33, &cpu, 2);
	memcpy(g->buf + 35, &g->tsc, 8);
	g->used = PREAMBLE;
}

static void put_fn(struct gen *g, unsigned int kind, int32_t fid)
{
	uint32_t w0 = FDR_FN_WORD0(kind, fid), delta = 1;

	if (g->used + FDR_FUNCTION_SIZE > BUFFER_SIZE)
		start_buffer(g, g->tid);
	memcpy(g->buf + g->used, &w0, 4);
	memcpy(g->buf + g->used + 4, &delta, 4);
	g->used += FDR_FUNCTION_SIZE;
	g->tsc++;
}

static void put_header(FILE *f)
{
	struct fdr_log_header h = {
		.version = 2, .type = FDR_LOG_TYPE_FDR,
		.flags = FDR_LOG_FLAG_CONSTANT_TSC | FDR_LOG_FLAG_NONSTOP_TSC,
		.cycle_frequency = 1000000000ull, .buffer_size = BUFFER_SIZE,
	};

	fwrite(&h, 1, sizeof(h), f);
}

/*
 * densemap::detail::mix and DenseMapInfo<pair<u64, i32>> as
 * userspace/reader/dense_map_order.c replays them: hash(0) is 0, so the
 * key's hash is mix(tid * 37) truncated to 32 bits.
 */
static uint32_t llvm_hash_pid0(int32_t tid)
{
	uint64_t x = (uint32_t)tid * 37u;

	x *= 0xbf58476d1ce4e5b9ull;
	x ^= x >> 31;
	return (uint32_t)x;
}

static void put_colliding(struct gen *g, long n)
{
	for (int32_t tid = 1; n > 0 && tid < INT32_MAX; tid++) {
		if (llvm_hash_pid0(tid) & 0xffff)
			continue;
		start_buffer(g, tid);
		put_fn(g, FDR_FN_ENTER, 1 + tid % 7);
		put_fn(g, FDR_FN_EXIT, 1 + tid % 7);
		n--;
	}
}

/* A fixed pseudo-random walk, so a test can compare two readers' output. */
static void put_mixed(struct gen *g, long n)
{
	int32_t stack[8][64];
	int depth[8] = { 0 };
	uint32_t r = 12345;

	for (long i = 0; i < n; i++) {
		int t = (int)(i / 100 % 8), *d = &depth[t];
		uint32_t pick;

		if (i % 100 == 0)
			start_buffer(g, t + 1);
		r = r * 1103515245u + 12345u;
		pick = r >> 16;
		if (pick % 10 < 5 && *d < 64) {
			stack[t][(*d)++] = 1 + (int32_t)(pick / 10 % 20);
			put_fn(g, FDR_FN_ENTER, stack[t][*d - 1]);
		} else if (pick % 10 < 8 && *d) {
			put_fn(g, FDR_FN_EXIT, stack[t][--*d]);
		} else if (pick % 10 < 9 && *d) {	/* a deeper frame: unwinds */
			*d = (int)(pick / 10 % (uint32_t)*d);
			put_fn(g, FDR_FN_EXIT, stack[t][*d]);
		} else {				/* never entered */
			put_fn(g, FDR_FN_EXIT, 100 + (int32_t)(pick / 10 % 5));
		}
	}
}

int main(int argc, char **argv)
{
	static struct gen g;
	long n;

	if (argc != 4 || (strcmp(argv[1], "orphans") && strcmp(argv[1], "threads") &&
			  strcmp(argv[1], "mixed") && strcmp(argv[1], "collide")) ||
	    (n = atol(argv[2])) <= 0) {
		fprintf(stderr, "usage: gen_crafted orphans|threads|mixed|collide N OUT\n");
		return 2;
	}
	g.f = fopen(argv[3], "wb");
	if (!g.f) {
		perror(argv[3]);
		return 1;
	}
	g.tsc = 1000;
	put_header(g.f);
	if (!strcmp(argv[1], "orphans")) {
		start_buffer(&g, 1);
		for (long i = 0; i < n; i++)
			put_fn(&g, FDR_FN_ENTER, 1);
		for (long i = 0; i < n; i++)
			put_fn(&g, FDR_FN_EXIT, 2);
	} else if (!strcmp(argv[1], "mixed")) {
		put_mixed(&g, n);
	} else if (!strcmp(argv[1], "collide")) {
		put_colliding(&g, n);
	} else {
		for (long t = 1; t <= n; t++) {
			start_buffer(&g, (int32_t)t);
			put_fn(&g, FDR_FN_ENTER, 1 + (int32_t)(t % 7));
			put_fn(&g, FDR_FN_EXIT, 1 + (int32_t)(t % 7));
		}
	}
	flush_buffer(&g);
	if (fclose(g.f)) {
		perror(argv[3]);
		return 1;
	}
	return 0;
}
