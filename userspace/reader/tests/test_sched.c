// SPDX-License-Identifier: MIT
/*
 * test_sched.c - libfdrread's .sched reader on files built here byte by
 * byte: the header checks (each hostile field refused with its message),
 * records of unknown type skipped, the per-thread state rules of
 * format.md, and fdr_sched_thread_split() against a linear reference on
 * random files and intervals.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fdr_reader.h>
#include "tap.h"

struct file {
	uint8_t bytes[64 + 32 * 4096];
	size_t size;
	struct fdr_sched_file h;
};

static void file_init(struct file *f, uint64_t lost)
{
	memset(f, 0, sizeof(*f));
	f->h = (struct fdr_sched_file){
		.magic = FDR_SCHED_FILE_MAGIC, .version = FDR_SCHED_VERSION,
		.header_size = 64, .record_size = 32, .generation = 1,
		.tsc_hz = 1000000000, .records_lost = lost, .nr_cpus = 2,
	};
	f->size = 64;
}

static void add(struct file *f, uint64_t tsc, uint8_t type, uint8_t state, int32_t tid,
		int32_t other_tid)
{
	struct fdr_sched_record r = { tsc, type, state, 0, 100, tid, 100, other_tid, 0 };

	memcpy(f->bytes + f->size, &r, sizeof(r));
	f->size += sizeof(r);
	f->h.nr_records++;
}

static struct fdr_sched *open_file(struct file *f, struct fdr_reader_error *err)
{
	struct fdr_sched *s;

	memcpy(f->bytes, &f->h, sizeof(f->h));
	return fdr_sched_open_memory(&s, f->bytes, f->size, err) ? NULL : s;
}

/*
 * Thread 10: sleeps at 1000, woken by thread 20 at 3000, runs at 3500,
 * preempted at 5000, back at 5200.  Thread 20: on CPU until 4000 (D),
 * woken by an interrupt at 6000.  A record of type 9 in between.
 */
static void sample(struct file *f, uint64_t lost)
{
	file_init(f, lost);
	add(f, 1000, FDR_SCHED_SWITCH_OUT, FDR_SCHED_SLEEPING, 10, 0);
	add(f, 3000, FDR_SCHED_WAKEUP, FDR_SCHED_BY_TASK, 10, 20);
	add(f, 3500, FDR_SCHED_SWITCH_IN, 0, 10, 0);
	add(f, 3600, 9, 0, 10, 0);
	add(f, 4000, FDR_SCHED_SWITCH_OUT, FDR_SCHED_DISK, 20, 0);
	add(f, 5000, FDR_SCHED_SWITCH_OUT, FDR_SCHED_RUNNABLE, 10, 0);
	add(f, 5200, FDR_SCHED_SWITCH_IN, 0, 10, 0);
	add(f, 6000, FDR_SCHED_WAKEUP, FDR_SCHED_BY_HARDIRQ, 20, 0);
}

static bool split_is(const struct fdr_sched *s, int32_t tid, uint64_t a, uint64_t b,
		     uint64_t on, uint64_t run, uint64_t blocked, uint64_t unknown)
{
	struct fdr_sched_split x;

	fdr_sched_thread_split(s, tid, a, b, &x);
	CHECK(x.on_cpu == on && x.runnable == run && x.blocked == blocked && x.unknown == unknown,
	      "tid %d [%llu, %llu): on %llu runnable %llu blocked %llu unknown %llu", tid,
	      (unsigned long long)a, (unsigned long long)b, (unsigned long long)x.on_cpu,
	      (unsigned long long)x.runnable, (unsigned long long)x.blocked,
	      (unsigned long long)x.unknown);
	return true;
}

static bool test_splits(void)
{
	struct fdr_reader_error err;
	struct file f;
	struct fdr_sched *s;
	bool ok;

	sample(&f, 0);
	s = open_file(&f, &err);
	CHECK(s, "%s", err.message);
	ok = split_is(s, 10, 0, 10000, 1000 + 1500 + 4800, 500 + 200, 2000, 0) &&
	     split_is(s, 10, 2000, 3200, 0, 200, 1000, 0) &&
	     split_is(s, 10, 500, 900, 400, 0, 0, 0) &&
	     split_is(s, 10, 5100, 5100, 0, 0, 0, 0) &&
	     split_is(s, 10, 5100, 4000, 0, 0, 0, 0) &&
	     split_is(s, 10, 3000, 3500, 0, 500, 0, 0) &&
	     split_is(s, 20, 0, 7000, 4000, 1000, 2000, 0) &&
	     split_is(s, 99, 0, 100, 100, 0, 0, 0);
	fdr_sched_close(s);
	return ok;
}

static bool test_threads(void)
{
	struct fdr_reader_error err;
	const struct fdr_sched_thread *th;
	struct file f;
	struct fdr_sched *s;

	sample(&f, 0);
	s = open_file(&f, &err);
	CHECK(s, "%s", err.message);
	CHECK(fdr_sched_skipped(s) == 1, "skipped %llu", (unsigned long long)fdr_sched_skipped(s));
	CHECK(fdr_sched_thread_count(s) == 2, "threads %zu", fdr_sched_thread_count(s));
	th = fdr_sched_thread_at(s, 0);
	CHECK(th->tid == 10 && th->pid == 100 && th->count == 5, "thread 0: %d, %zu", th->tid, th->count);
	CHECK(th->state_before == FDR_THREAD_ON_CPU, "before %u", th->state_before);
	CHECK(th->state_after[0] == FDR_THREAD_SLEEPING && th->state_after[1] == FDR_THREAD_RUNNABLE &&
	      th->state_after[2] == FDR_THREAD_ON_CPU && th->state_after[3] == FDR_THREAD_RUNNABLE,
	      "states after");
	CHECK(th->records[1].other_tid == 20 && th->records[4].tsc == 5200, "records");
	th = fdr_sched_thread_find(s, 20);
	CHECK(th && th->count == 2 && th->state_after[0] == FDR_THREAD_DISK, "thread 20");
	CHECK(!fdr_sched_thread_find(s, 11) && !fdr_sched_thread_find(s, 0), "no thread 11");
	CHECK(fdr_sched_state_at(s, 10, 999) == FDR_THREAD_ON_CPU &&
	      fdr_sched_state_at(s, 10, 1000) == FDR_THREAD_SLEEPING &&
	      fdr_sched_state_at(s, 10, 3499) == FDR_THREAD_RUNNABLE &&
	      fdr_sched_state_at(s, 20, 5000) == FDR_THREAD_DISK &&
	      fdr_sched_state_at(s, 77, 5000) == FDR_THREAD_ON_CPU, "state_at");
	CHECK(fdr_sched_get_header(s)->tsc_hz == 1000000000, "header copied");
	fdr_sched_close(s);
	return true;
}

/* First records decide the state before them; lost records make it unknown. */
static bool test_before_first(void)
{
	struct fdr_reader_error err;
	struct file f;
	struct fdr_sched *s;
	bool ok;

	file_init(&f, 0);
	add(&f, 100, FDR_SCHED_SWITCH_IN, 0, 1, 0);
	add(&f, 100, FDR_SCHED_WAKEUP, FDR_SCHED_BY_TASK, 2, 1);
	add(&f, 150, FDR_SCHED_SWITCH_IN, 0, 2, 0);
	/* woken while still on its CPU: stays there */
	add(&f, 200, FDR_SCHED_WAKEUP, FDR_SCHED_BY_TASK, 1, 2);
	s = open_file(&f, &err);
	CHECK(s, "%s", err.message);
	ok = split_is(s, 1, 0, 300, 200, 100, 0, 0) && split_is(s, 2, 0, 300, 150, 50, 100, 0);
	CHECK(fdr_sched_thread_find(s, 2)->state_before == FDR_THREAD_SLEEPING, "before a WAKEUP");
	fdr_sched_close(s);
	if (!ok)
		return false;
	sample(&f, 5);
	s = open_file(&f, &err);
	CHECK(s, "%s", err.message);
	ok = split_is(s, 10, 0, 2000, 0, 0, 1000, 1000) && split_is(s, 99, 10, 20, 0, 0, 0, 10);
	fdr_sched_close(s);
	return ok;
}

static bool refused(struct file *f, const char *what)
{
	struct fdr_reader_error err = { 0 };
	struct fdr_sched *s = open_file(f, &err);

	if (s)
		fdr_sched_close(s);
	CHECK(!s && strstr(err.message, what), "expected \"%s\", got \"%s\"", what, err.message);
	return true;
}

/* A header field set to a hostile value, and what the reader must say. */
static const struct {
	size_t offset, width;
	uint64_t value;
	const char *message;
} hostile[] = {
	{ 0, 4, 0x46534447, "offset 0: sched header: expected magic 0x46534446, found 0x46534447" },
	{ 4, 2, 2, "offset 4: sched header: expected version 1, found 2" },
	{ 6, 2, 72, "offset 6: sched header: expected header_size 64, found 72" },
	{ 8, 2, 40, "offset 8: sched header: expected record_size 32, found 40" },
	{ 24, 8, UINT64_MAX, "offset 24: sched header: expected a length of 64 + 32 x nr_records "
	  "(18446744073709551615), found 320 bytes" },
	{ 24, 8, (UINT64_MAX >> 5) + 2, "nr_records (576460752303423489)" },	/* x 32 wraps to 32 */
	{ 24, 8, 7, "nr_records (7), found 320 bytes" },
};

static bool test_hostile(void)
{
	struct fdr_reader_error err;
	struct fdr_sched *s;
	struct file f;
	bool ok = true;

	for (size_t i = 0; i < sizeof(hostile) / sizeof(hostile[0]); i++) {
		sample(&f, 0);
		memcpy((uint8_t *)&f.h + hostile[i].offset, &hostile[i].value, hostile[i].width);
		ok &= refused(&f, hostile[i].message);
	}
	sample(&f, 0);
	f.size = 63;
	ok &= refused(&f, "offset 0: sched header: truncated: expected a 64-byte header, found 63");
	sample(&f, 0);
	f.size -= 8;
	ok &= refused(&f, "nr_records (8), found 312 bytes");
	CHECK(fdr_sched_open(&s, "/nonexistent/x.sched", &err) && !s &&
	      strstr(err.message, "cannot read /nonexistent/x.sched: No such file"), "%s", err.message);
	CHECK(fdr_sched_open(&s, "/", &err) && strstr(err.message, "cannot read /: "), "%s", err.message);
	file_init(&f, 0);
	s = open_file(&f, &err);
	CHECK(s && fdr_sched_thread_count(s) == 0, "an empty file is valid");
	fdr_sched_close(s);
	return ok;
}

/* The split a walk over every tick would give. */
static void reference(const struct fdr_sched *s, int32_t tid, uint64_t a, uint64_t b,
		      struct fdr_sched_split *x)
{
	memset(x, 0, sizeof(*x));
	for (uint64_t t = a; t < b; t++) {
		enum fdr_thread_state st = fdr_sched_state_at(s, tid, t);

		if (st == FDR_THREAD_ON_CPU)
			x->on_cpu++;
		else if (st == FDR_THREAD_RUNNABLE)
			x->runnable++;
		else if (st == FDR_THREAD_UNKNOWN)
			x->unknown++;
		else
			x->blocked++;
	}
}

/* state_at itself against a walk of the records. */
static enum fdr_thread_state walk_state(const struct fdr_sched_thread *th, uint64_t t)
{
	enum fdr_thread_state st = th->state_before;

	for (size_t i = 0; i < th->count && th->records[i].tsc <= t; i++)
		st = th->state_after[i];
	return st;
}

static bool test_random(void)
{
	struct fdr_reader_error err;
	static struct file f;
	struct fdr_sched *s;
	unsigned seed = 12345;

	for (int round = 0; round < 40; round++) {
		file_init(&f, round % 5 == 4);
		for (int i = 0; i < 200; i++)	/* unsorted on purpose */
			add(&f, (uint64_t)(rand_r(&seed) % 2000), (uint8_t)(1 + rand_r(&seed) % 4),
			    (uint8_t)(rand_r(&seed) % 5), 1 + rand_r(&seed) % 4, 0);
		s = open_file(&f, &err);
		CHECK(s, "%s", err.message);
		for (int q = 0; q < 100; q++) {
			int32_t tid = 1 + rand_r(&seed) % 5;
			uint64_t a = (uint64_t)(rand_r(&seed) % 2200), b = (uint64_t)(rand_r(&seed) % 2200);
			const struct fdr_sched_thread *th = fdr_sched_thread_find(s, tid);
			struct fdr_sched_split x, y;

			fdr_sched_thread_split(s, tid, a, b, &x);
			reference(s, tid, a, b, &y);
			if (memcmp(&x, &y, sizeof(x)) || (th && walk_state(th, a) !=
							  fdr_sched_state_at(s, tid, a))) {
				fdr_sched_close(s);
				CHECK(false, "round %d: tid %d [%llu, %llu)", round, tid,
				      (unsigned long long)a, (unsigned long long)b);
			}
		}
		fdr_sched_close(s);
	}
	return true;
}

int main(void)
{
	tap_ok(test_splits(), "split: on CPU, runnable and blocked ticks of intervals");
	tap_ok(test_threads(), "threads by tid, records sorted, states after each, unknown type skipped");
	tap_ok(test_before_first(), "before the first record: format.md's rule; unknown when records were lost");
	tap_ok(test_hostile(), "hostile headers refused with offset and cause");
	tap_ok(test_random(), "split = a walk over every tick, on 40 random unsorted files");
	return tap_done();
}
