// SPDX-License-Identifier: MIT
/*
 * sched_file.c - copy the kernel's per-CPU scheduling rings and merge
 * them into the bytes of a .sched file.
 *
 * A ring may still move while it is copied (the kernel stops recording at
 * FINALIZE, but nothing here relies on it): the head is loaded before
 * (h1) and after (h2) the copy, and only records [max(0, h2 - R + 1), h1)
 * are kept, the rest counted lost (uapi/linux/fdr_sched.h): slot h2 % R
 * may be half-written by then, older slots are whole.  The merge is one
 * sort of (tsc, position) keys, position being ring then record number,
 * rather than a k-way merge of the rings: a ring is only as ordered as
 * its CPU's TSC, and a sort needs no such promise; ties go by CPU, then
 * by record number.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <linux/fdr_sched.h>

#include "sched_file.h"

/* The area's geometry, copied once and checked (check_header). */
struct area_geom {
	uint32_t nr_cpus;
	uint64_t ring_records;
	uint64_t rings_offset;
	uint64_t records_offset;
};

struct sort_key {
	uint64_t tsc;
	uint64_t pos;		/* in the copy: ring by ring, oldest first */
};

static const char *check_ids(const struct fdr_sched_area *h,
			     const struct sched_facts *facts)
{
	if (h->magic != FDR_SCHED_AREA_MAGIC)
		return "bad magic";
	if (h->version != FDR_SCHED_VERSION)
		return "unknown version";
	if (h->record_size != FDR_SCHED_RECORD_SIZE)
		return "record_size is not 32";
	if (h->generation != facts->generation)
		return "its generation is not the region's (STATUS)";
	if (!h->nr_cpus || !h->ring_records)
		return "no rings (nr_cpus or ring_records is 0)";
	return NULL;
}

/* Rings after the header, records after the rings, all inside len. */
static const char *check_geometry(const struct fdr_sched_area *h, size_t len,
				  struct area_geom *g)
{
	uint64_t rings_end, nr, bytes, end;

	/* u32 + u32 * 64 cannot overflow 64 bits */
	rings_end = (uint64_t)h->rings_offset + (uint64_t)h->nr_cpus * FDR_SCHED_RING_SIZE;
	if (h->rings_offset < FDR_SCHED_AREA_SIZE || h->rings_offset % 8)
		return "rings_offset inside the header or misaligned";
	if (rings_end > len)
		return "the rings end past sched_size (nr_cpus too large)";
	if (h->records_offset < rings_end)
		return "records_offset inside the header or the rings";
	if (__builtin_mul_overflow((uint64_t)h->nr_cpus, (uint64_t)h->ring_records, &nr) ||
	    __builtin_mul_overflow(nr, (uint64_t)FDR_SCHED_RECORD_SIZE, &bytes) ||
	    __builtin_add_overflow(h->records_offset, bytes, &end) || end > len)
		return "the records end past sched_size (nr_cpus * ring_records too large)";
	*g = (struct area_geom){ h->nr_cpus, h->ring_records, h->rings_offset,
				 h->records_offset };
	return NULL;
}

static const char *check_header(const void *area, size_t len,
				const struct sched_facts *facts, struct area_geom *g)
{
	struct fdr_sched_area h;
	const char *why;

	if (len != facts->sched_size)
		return "the mapping's length is not STATUS's sched_size";
	if (len < sizeof(h))
		return "shorter than its header";
	memcpy(&h, area, sizeof(h));
	why = check_ids(&h, facts);
	return why ? why : check_geometry(&h, len, g);
}

static uint64_t load_head(const uint8_t *base, const struct area_geom *g,
			  uint32_t cpu)
{
	const struct fdr_sched_ring *r = (const void *)(base + g->rings_offset +
							(uint64_t)cpu * FDR_SCHED_RING_SIZE);

	return __atomic_load_n(&r->head, __ATOMIC_ACQUIRE);
}

struct copy {
	struct fdr_sched_record *recs;	/* capacity nr_cpus * ring_records */
	size_t n;
	uint64_t lost;
	void (*during_copy)(void *arg, uint32_t cpu);
	void *arg;
};

/* Ring cpu's records [first kept, h1) appended to c; -EBADMSG if absurd. */
static int copy_ring(const uint8_t *base, const struct area_geom *g, uint32_t cpu,
		     struct copy *c)
{
	const uint8_t *slots = base + g->records_offset +
			       (uint64_t)cpu * g->ring_records * FDR_SCHED_RECORD_SIZE;
	uint64_t r = g->ring_records, h1 = load_head(base, g, cpu), h2, from, keep;
	struct fdr_sched_record *dst = c->recs + c->n;

	from = h1 > r ? h1 - r : 0;
	for (uint64_t n = from; n < h1; n++)
		memcpy(&dst[n - from], slots + (n % r) * FDR_SCHED_RECORD_SIZE,
		       FDR_SCHED_RECORD_SIZE);
	if (c->during_copy)
		c->during_copy(c->arg, cpu);
	h2 = load_head(base, g, cpu);
	if (h2 < h1)
		return -EBADMSG;
	keep = h2 >= r ? h2 - r + 1 : 0;
	if (keep < from)
		keep = from;
	if (keep > h1)
		keep = h1;
	memmove(dst, dst + (keep - from), (h1 - keep) * sizeof(*dst));
	c->n += h1 - keep;
	c->lost += keep;
	return 0;
}

static int key_cmp(const void *a, const void *b)
{
	const struct sort_key *x = a, *y = b;

	if (x->tsc != y->tsc)
		return x->tsc < y->tsc ? -1 : 1;
	return x->pos < y->pos ? -1 : x->pos > y->pos;
}

static void put_header(struct sched_file *f, const struct sched_facts *facts)
{
	struct fdr_sched_file h = {
		.magic = FDR_SCHED_FILE_MAGIC,
		.version = FDR_SCHED_VERSION,
		.header_size = FDR_SCHED_FILE_SIZE,
		.record_size = FDR_SCHED_RECORD_SIZE,
		.generation = facts->generation,
		.tsc_hz = facts->tsc_hz,
		.nr_records = f->nr_records,
		.records_lost = f->records_lost,
		.nr_cpus = f->nr_cpus,
	};

	memcpy(f->bytes, &h, sizeof(h));
}

/* The copied records in (tsc, position) order behind the header. */
static int merge(const struct copy *c, const struct sched_facts *facts,
		 struct sched_file *f)
{
	struct sort_key *keys = malloc((c->n ? c->n : 1) * sizeof(*keys));
	struct fdr_sched_record *out;

	f->len = FDR_SCHED_FILE_SIZE + c->n * FDR_SCHED_RECORD_SIZE;
	f->bytes = keys ? malloc(f->len) : NULL;
	if (!f->bytes) {
		free(keys);
		return -ENOMEM;
	}
	for (size_t i = 0; i < c->n; i++)
		keys[i] = (struct sort_key){ c->recs[i].tsc, i };
	qsort(keys, c->n, sizeof(*keys), key_cmp);
	out = (struct fdr_sched_record *)((uint8_t *)f->bytes + FDR_SCHED_FILE_SIZE);
	for (size_t i = 0; i < c->n; i++)
		out[i] = c->recs[keys[i].pos];
	free(keys);
	f->nr_records = c->n;
	f->records_lost = c->lost;
	put_header(f, facts);
	return 0;
}

int sched_file_build_hooked(const void *area, size_t len,
			    const struct sched_facts *facts, struct sched_file *out,
			    const char **why, void (*during_copy)(void *arg, uint32_t cpu),
			    void *arg)
{
	struct copy c = { .during_copy = during_copy, .arg = arg };
	struct area_geom g;
	int ret = 0;

	memset(out, 0, sizeof(*out));
	*why = check_header(area, len, facts, &g);
	if (*why)
		return -EBADMSG;
	/* fits in len (checked), hence in size_t */
	c.recs = malloc((size_t)(g.nr_cpus * g.ring_records) * sizeof(*c.recs));
	if (!c.recs)
		return -ENOMEM;
	for (uint32_t cpu = 0; cpu < g.nr_cpus && !ret; cpu++)
		ret = copy_ring(area, &g, cpu, &c);
	if (ret)
		*why = "a ring's head went backwards during the copy";
	out->nr_cpus = g.nr_cpus;
	if (!ret)
		ret = merge(&c, facts, out);
	free(c.recs);
	if (ret)
		sched_file_free(out);
	return ret;
}

int sched_file_build(const void *area, size_t len, const struct sched_facts *facts,
		     struct sched_file *out, const char **why)
{
	return sched_file_build_hooked(area, len, facts, out, why, NULL, NULL);
}

void sched_file_free(struct sched_file *f)
{
	free(f->bytes);
	memset(f, 0, sizeof(*f));
}
