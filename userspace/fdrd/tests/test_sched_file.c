// SPDX-License-Identifier: MIT
/*
 * test_sched_file.c - the .sched file's bytes from synthetic scheduling
 * areas laid out per uapi/linux/fdr_sched.h: rings merged in TSC order
 * (ties by CPU), wrapped and empty rings, a head that moves during the
 * copy (the h1/h2 rule), and hostile header fields, each refused with no
 * bytes.  The checks are on the bytes of the file, field by field.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <linux/fdr_sched.h>

#include "sched_file.h"
#include "tap.h"

#define GEN 7u
#define HZ 2400000000ull
#define RINGS_AT 128u

struct area {
	uint8_t *p;
	size_t len;
	struct fdr_sched_area *h;
};

static void area_make(struct area *a, uint32_t nr_cpus, uint32_t ring_records)
{
	uint64_t records_at = RINGS_AT + (uint64_t)nr_cpus * FDR_SCHED_RING_SIZE;

	a->len = records_at + (size_t)nr_cpus * ring_records * FDR_SCHED_RECORD_SIZE;
	a->p = aligned_alloc(4096, (a->len + 4095) / 4096 * 4096);
	memset(a->p, 0, a->len);
	a->h = (struct fdr_sched_area *)a->p;
	*a->h = (struct fdr_sched_area){
		.magic = FDR_SCHED_AREA_MAGIC, .version = FDR_SCHED_VERSION,
		.record_size = FDR_SCHED_RECORD_SIZE, .generation = GEN,
		.nr_cpus = nr_cpus, .ring_records = ring_records,
		.rings_offset = RINGS_AT, .records_offset = records_at, .tsc_hz = 1,
	};
}

static struct fdr_sched_ring *ring(struct area *a, uint32_t cpu)
{
	return (struct fdr_sched_ring *)(a->p + a->h->rings_offset +
					 cpu * FDR_SCHED_RING_SIZE);
}

/* Record number n of cpu, as the kernel writes it: slot, then head. */
static struct fdr_sched_record rec(uint32_t cpu, uint64_t n, uint64_t tsc)
{
	return (struct fdr_sched_record){
		.tsc = tsc, .type = FDR_SCHED_SWITCH_OUT + n % 3, .state = n % 2,
		.cpu = cpu, .pid = 100, .tid = (int32_t)(1000 + n),
		.other_pid = 200, .other_tid = (int32_t)(2000 + cpu),
	};
}

static void put(struct area *a, uint32_t cpu, uint64_t n, uint64_t tsc)
{
	struct fdr_sched_record r = rec(cpu, n, tsc);
	uint64_t slot = n % a->h->ring_records;

	memcpy(a->p + a->h->records_offset +
	       ((uint64_t)cpu * a->h->ring_records + slot) * FDR_SCHED_RECORD_SIZE,
	       &r, sizeof(r));
	ring(a, cpu)->head = n + 1;
}

static struct sched_facts facts_of(const struct area *a)
{
	return (struct sched_facts){ .generation = GEN, .tsc_hz = HZ,
				     .sched_size = a->len };
}

/* Header bytes as format.md lists them. */
static bool header_is(const struct sched_file *f, uint64_t nr, uint64_t lost,
		      uint32_t nr_cpus)
{
	const uint8_t *b = f->bytes;
	struct fdr_sched_file h;

	CHECK(f->bytes && f->len == 64 + 32 * nr, "len %zu for %llu records", f->len,
	      (unsigned long long)nr);
	CHECK(!memcmp(b, "FDSF", 4), "magic bytes %02x %02x %02x %02x", b[0], b[1],
	      b[2], b[3]);
	memcpy(&h, b, sizeof(h));
	CHECK(h.version == 1 && h.header_size == 64 && h.record_size == 32 &&
	      h.reserved0 == 0, "version, sizes");
	CHECK(h.generation == GEN && h.tsc_hz == HZ, "generation %u, tsc_hz %llu (STATUS's)",
	      h.generation, (unsigned long long)h.tsc_hz);
	CHECK(h.nr_records == nr && f->nr_records == nr, "nr_records %llu, want %llu",
	      (unsigned long long)h.nr_records, (unsigned long long)nr);
	CHECK(h.records_lost == lost && f->records_lost == lost,
	      "records_lost %llu, want %llu", (unsigned long long)h.records_lost,
	      (unsigned long long)lost);
	CHECK(h.nr_cpus == nr_cpus && h.reserved1 == 0 && !h.reserved[0] &&
	      !h.reserved[1], "nr_cpus %u, reserved", h.nr_cpus);
	return true;
}

/* Record i of the file is exactly rec(cpu, n, tsc). */
static bool record_is(const struct sched_file *f, size_t i, uint32_t cpu,
		      uint64_t n, uint64_t tsc)
{
	struct fdr_sched_record want = rec(cpu, n, tsc);

	CHECK(!memcmp((uint8_t *)f->bytes + 64 + 32 * i, &want, 32),
	      "record %zu is not cpu %u's number %llu (tsc %llu)", i, cpu,
	      (unsigned long long)n, (unsigned long long)tsc);
	return true;
}

/* Build from a with STATUS's facts, as the flush does. */
static bool build(const struct area *a, struct sched_file *f)
{
	struct sched_facts facts = facts_of(a);
	const char *why = NULL;

	CHECK(sched_file_build(a->p, a->len, &facts, f, &why) == 0, "build: %s", why);
	return true;
}

static bool test_merge_order(void)
{
	struct sched_file f;
	struct area a;

	area_make(&a, 3, 8);
	put(&a, 0, 0, 10); put(&a, 0, 1, 30); put(&a, 0, 2, 50);
	put(&a, 1, 0, 20); put(&a, 1, 1, 30); put(&a, 1, 2, 60);
	put(&a, 2, 0, 30);
	a.h->tsc_hz = 1;	/* the area's rate is not the one written */
	if (!build(&a, &f) || !header_is(&f, 7, 0, 3))
		return false;
	CHECK(record_is(&f, 0, 0, 0, 10) && record_is(&f, 1, 1, 0, 20) &&
	      record_is(&f, 2, 0, 1, 30) && record_is(&f, 3, 1, 1, 30) &&
	      record_is(&f, 4, 2, 0, 30) && record_is(&f, 5, 0, 2, 50) &&
	      record_is(&f, 6, 1, 2, 60), "TSC order, ties by CPU");
	sched_file_free(&f);
	free(a.p);
	return true;
}

static bool test_wrapped_and_empty(void)
{
	struct sched_file f;
	struct area a;

	area_make(&a, 3, 4);
	for (uint64_t n = 0; n < 10; n++)
		put(&a, 1, n, 100 + n);	/* head 10: slots hold 6..9 */
	/* [max(0, 10 - 4 + 1), 10) = 7, 8, 9; 0..6 lost */
	if (!build(&a, &f) || !header_is(&f, 3, 7, 3))
		return false;
	CHECK(record_is(&f, 0, 1, 7, 107) && record_is(&f, 1, 1, 8, 108) &&
	      record_is(&f, 2, 1, 9, 109), "the newest of the wrapped ring");
	sched_file_free(&f);
	ring(&a, 1)->head = 0;
	if (!build(&a, &f) || !header_is(&f, 0, 0, 3))
		return false;
	sched_file_free(&f);
	free(a.p);
	return true;
}

struct mover {
	struct area *a;
	uint32_t cpu;
	uint64_t to;		/* records written while ring cpu is copied */
	bool backwards;
};

/* The kernel keeps recording on one CPU while fdrd copies its ring. */
static void move_head(void *arg, uint32_t cpu)
{
	struct mover *m = arg;

	if (cpu != m->cpu)
		return;
	if (m->backwards) {
		ring(m->a, cpu)->head = 1;
		return;
	}
	for (uint64_t n = ring(m->a, cpu)->head; n < m->to; n++)
		put(m->a, cpu, n, 900 + n);
}

static bool test_moving_head(void)
{
	struct sched_facts facts;
	struct sched_file f;
	struct area a;
	struct mover m = { .a = &a, .cpu = 0, .to = 5 };
	const char *why = NULL;

	area_make(&a, 2, 4);
	put(&a, 0, 0, 10); put(&a, 0, 1, 20); put(&a, 0, 2, 30);	/* h1 = 3 */
	put(&a, 1, 0, 15);
	facts = facts_of(&a);
	CHECK(sched_file_build_hooked(a.p, a.len, &facts, &f, &why, move_head, &m) == 0,
	      "build: %s", why);
	/* h2 = 5: slots 3, 0 rewritten, slot 1 may be: keep [2, 3) of ring 0 */
	if (!header_is(&f, 2, 2, 2))
		return false;
	CHECK(record_is(&f, 0, 1, 0, 15) && record_is(&f, 1, 0, 2, 30),
	      "only what h2 left whole, nothing written after h1");
	sched_file_free(&f);
	m.backwards = true;
	ring(&a, 0)->head = 3;
	CHECK(sched_file_build_hooked(a.p, a.len, &facts, &f, &why, move_head, &m) ==
		      -EBADMSG && !f.bytes && why && strstr(why, "backwards"),
	      "a head that goes back is refused (%s)", why ? why : "-");
	free(a.p);
	return true;
}

/* One spoiled field: refused, no bytes, a reason. */
static bool refused(const char *what, struct area *a, size_t len,
		    const struct sched_facts *facts)
{
	struct sched_file f;
	const char *why = NULL;
	int ret = sched_file_build(a->p, len, facts, &f, &why);

	CHECK(ret == -EBADMSG && !f.bytes && !f.len && why, "%s: %d, why %s", what,
	      ret, why ? why : "(none)");
	tap_diag("%s: %s", what, why);
	return true;
}

#define SPOIL(what, stmt)                                             \
	do {                                                          \
		struct sched_facts facts_;                            \
		area_make(&a, 2, 4);                                  \
		facts_ = facts_of(&a);                                \
		stmt;                                                 \
		ok = refused(what, &a, a.len, &facts_) && ok;         \
		free(a.p);                                            \
	} while (0)

static bool test_hostile_header(void)
{
	struct area a;
	bool ok = true;

	SPOIL("length is not sched_size", facts_.sched_size += 4096);
	SPOIL("shorter than the header", a.len = 32; facts_.sched_size = 32);
	SPOIL("magic", a.h->magic ^= 1);
	SPOIL("version", a.h->version = 2);
	SPOIL("record_size", a.h->record_size = 16);
	SPOIL("generation", a.h->generation = GEN + 1);
	SPOIL("no CPUs", a.h->nr_cpus = 0);
	SPOIL("no ring records", a.h->ring_records = 0);
	SPOIL("nr_cpus too big for sched_size", a.h->nr_cpus = 1u << 20);
	SPOIL("nr_cpus * ring_records past the end",
	      a.h->nr_cpus = 3; a.h->records_offset += FDR_SCHED_RING_SIZE);
	SPOIL("ring_records past the end", a.h->ring_records = 0xffffffffu);
	SPOIL("rings inside the header", a.h->rings_offset = 8);
	SPOIL("rings misaligned", a.h->rings_offset = RINGS_AT + 4);
	SPOIL("records inside the rings", a.h->records_offset = RINGS_AT + 64);
	SPOIL("records past the end", a.h->records_offset = a.len);
	SPOIL("records_offset overflows", a.h->records_offset = ~0ull - 16);
	return ok;
}

int main(void)
{
	tap_plan(4);
	tap_ok(test_merge_order(), "sched: rings merged in TSC order, ties by CPU; header bytes");
	tap_ok(test_wrapped_and_empty(), "sched: a wrapped ring keeps its newest, lost counted; empty rings");
	tap_ok(test_moving_head(), "sched: a head that moves during the copy (h1/h2), one that goes back");
	tap_ok(test_hostile_header(), "sched: hostile header fields are refused with no bytes");
	return tap_done();
}
