// SPDX-License-Identifier: MIT
/*
 * gen_big_log - write a large, valid XRay FDR log for the reader benchmark.
 *
 * usage: gen_big_log OUT MEGABYTES [VERSION]   (VERSION 2 default, or 5)
 *
 * Shaped like a real recording: 8 threads, 16 KiB buffers written in slot
 * order (threads interleaved), each buffer NewBuffer, Walltime, [Pid,]
 * NewCPUId, then nested Enter/Exit pairs with small deltas, some calls
 * with a logged argument, an occasional custom event, CPU migrations and
 * TSC wraps.  Deterministic (fixed PRNG seed).  Record layouts come from
 * uapi/linux/fdr_log.h.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/fdr_log.h>

#define THREADS 8
#define BUFFER_SIZE 16384

struct thread {
	int32_t tid;
	uint64_t tsc;
	uint16_t cpu;
	int depth;
	uint32_t stack[64];
};

static uint64_t rng = 0x9e3779b97f4a7c15ull;

static uint32_t next_random(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return (uint32_t)rng;
}

struct buf { uint8_t b[BUFFER_SIZE]; size_t n; };

static void md(struct buf *o, unsigned kind, const void *p, size_t n)
{
	uint8_t r[FDR_METADATA_SIZE] = { FDR_MD_FIRST_BYTE(kind) };

	memcpy(r + 1, p, n);
	memcpy(o->b + o->n, r, sizeof(r));
	o->n += sizeof(r);
}

static void fn(struct buf *o, unsigned kind, uint32_t fid, uint32_t delta)
{
	struct fdr_function_record r = { FDR_FN_WORD0(kind, fid), delta };

	memcpy(o->b + o->n, &r, sizeof(r));
	o->n += sizeof(r);
}

static void new_cpu(struct buf *o, struct thread *t)
{
	uint8_t p[10];

	memcpy(p, &t->cpu, 2);
	memcpy(p + 2, &t->tsc, 8);
	md(o, FDR_MD_NEW_CPU_ID, p, 10);
}

static void preamble(struct buf *o, struct thread *t, unsigned version, uint64_t sec)
{
	uint8_t w[12];
	uint32_t usec = next_random() % 1000000;
	int32_t pid = 4242;

	o->n = 0;
	md(o, FDR_MD_NEW_BUFFER, &t->tid, 4);
	memcpy(w, &sec, 8);
	memcpy(w + 8, &usec, 4);
	md(o, FDR_MD_WALLTIME, w, 12);
	if (version >= 3)
		md(o, FDR_MD_PID, &pid, 4);
	new_cpu(o, t);
}

/* One step of the thread's call tree: enter, exit, or something rarer. */
static void step(struct buf *o, struct thread *t, unsigned version)
{
	uint32_t r = next_random(), delta = 20 + r % 300;

	if (r % 997 == 0) {
		t->cpu = (uint16_t)(r % 4);
		t->tsc += delta;
		new_cpu(o, t);
	} else if (r % 1499 == 0) {
		t->tsc += 3000000000u;	/* a gap too long for a delta */
		md(o, FDR_MD_TSC_WRAP, &t->tsc, 8);
	} else if (r % 211 == 0 && version >= 5) {
		int32_t ev[2] = { 16, (int32_t)delta };
		static const char payload[16] = "event payload 16";

		t->tsc += delta;
		md(o, FDR_MD_CUSTOM_EVENT, ev, 8);
		memcpy(o->b + o->n, payload, 16);
		o->n += 16;
	} else if (t->depth < 2 || (t->depth < 63 && r % 2)) {
		uint32_t fid = 1 + (r >> 8) % 500;

		t->tsc += delta;
		t->stack[t->depth++] = fid;
		if (fid % 10 == 0) {
			uint64_t arg = r;

			fn(o, FDR_FN_ENTER_ARG, fid, delta);
			md(o, FDR_MD_CALL_ARGUMENT, &arg, 8);
		} else {
			fn(o, FDR_FN_ENTER, fid, delta);
		}
	} else {
		t->tsc += delta;
		fn(o, FDR_FN_EXIT, t->stack[--t->depth], delta);
	}
}

static int write_buffer(FILE *f, struct buf *o, unsigned version)
{
	if (version >= 2) {
		uint8_t ext[FDR_METADATA_SIZE] = { FDR_MD_FIRST_BYTE(FDR_MD_BUFFER_EXTENTS) };
		uint64_t n = o->n;

		memcpy(ext + 1, &n, 8);
		if (fwrite(ext, sizeof(ext), 1, f) != 1)
			return -1;
	}
	return fwrite(o->b, o->n, 1, f) == 1 ? 0 : -1;
}

int main(int argc, char **argv)
{
	static struct buf o;
	struct thread th[THREADS];
	struct fdr_log_header h = { 2, FDR_LOG_TYPE_FDR, 3, 2400000000ull, BUFFER_SIZE, { 0 } };
	unsigned long long want, written = 0;
	unsigned version;
	FILE *f;

	if (argc < 3) {
		fprintf(stderr, "usage: gen_big_log OUT MEGABYTES [VERSION]\n");
		return 2;
	}
	want = strtoull(argv[2], NULL, 10) << 20;
	version = argc > 3 ? (unsigned)atoi(argv[3]) : 2;
	if (version != 2 && version != 5) {
		fprintf(stderr, "gen_big_log: version %u: expected 2 or 5\n", version);
		return 2;
	}
	h.version = (uint16_t)version;
	f = fopen(argv[1], "wb");
	if (!f) {
		perror(argv[1]);
		return 1;
	}
	for (int i = 0; i < THREADS; i++)
		th[i] = (struct thread){ .tid = 1000 + i, .tsc = 1000000 + i, .cpu = (uint16_t)i % 2 };
	if (fwrite(&h, sizeof(h), 1, f) != 1)
		goto fail;
	written = sizeof(h);
	for (uint64_t sec = 1; written < want; sec++) {
		for (int i = 0; i < THREADS && written < want; i++) {
			preamble(&o, &th[i], version, sec);
			while (o.n + 48 + 16 <= BUFFER_SIZE - 64)
				step(&o, &th[i], version);
			if (write_buffer(f, &o, version))
				goto fail;
			written += o.n + FDR_METADATA_SIZE;
		}
	}
	if (fclose(f) == 0)
		return 0;
	f = NULL;
fail:
	perror(argv[1]);
	if (f)
		fclose(f);
	remove(argv[1]);
	return 1;
}
