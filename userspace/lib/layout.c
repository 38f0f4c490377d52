// SPDX-License-Identifier: MIT
/*
 * layout.c - the geometry of a region, computed for the embedded backend
 * and checked for any mapped region before a writer trusts it.
 *
 *   0              struct fdr_control
 *   rings_offset   struct fdr_cpu_ring[nr_cpus]
 *   descs_offset   struct fdr_buffer_desc[nr_buffers]
 *   control_size   (page aligned) buffer 0; buffer i at control_size + i*size
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include "internal.h"

/* Larger regions are refused: almost surely a typo in a size. */
#define FDR_MAX_REGION_BYTES	(64ull << 30)
#define FDR_MAX_BUFFER_SIZE	(1ull << 30)

FDR_NOINSTR size_t fdr__page_size(void)
{
	static size_t page;

	if (!page)
		page = (size_t)sysconf(_SC_PAGESIZE);
	return page;
}

FDR_NOINSTR static uint64_t align_up(uint64_t v, uint64_t a)
{
	return (v + a - 1) / a * a;
}

FDR_NOINSTR int fdr__geometry_compute(struct fdr_geometry *g,
				      uint64_t buffer_size,
				      uint32_t buffers_per_cpu,
				      uint32_t nr_cpus)
{
	uint64_t page = fdr__page_size();
	uint64_t nr_buffers, descs_end;

	memset(g, 0, sizeof(*g));
	if (buffer_size == 0 || buffer_size % page ||
	    buffer_size > FDR_MAX_BUFFER_SIZE || buffers_per_cpu == 0 ||
	    nr_cpus == 0)
		return -EINVAL;
	nr_buffers = (uint64_t)nr_cpus * buffers_per_cpu;
	if (nr_buffers > UINT32_MAX / 2 ||
	    nr_buffers * buffer_size > FDR_MAX_REGION_BYTES)
		return -ENOMEM;
	g->buffer_size = buffer_size;
	g->nr_cpus = nr_cpus;
	g->buffers_per_cpu = buffers_per_cpu;
	g->nr_buffers = (uint32_t)nr_buffers;
	g->rings_offset = FDR_CONTROL_HEADER_SIZE;
	g->descs_offset = g->rings_offset + nr_cpus * FDR_CPU_RING_SIZE;
	descs_end = g->descs_offset + nr_buffers * FDR_BUFFER_DESC_SIZE;
	g->control_size = align_up(descs_end, page);
	g->map_size = g->control_size + nr_buffers * buffer_size;
	return 0;
}

/*
 * Each geometry word of a shared page, read once.  Any process that maps
 * the region writable can change the page at any time, so a field read
 * twice can differ between the check and the use: callers check and use
 * this copy only.
 */
#define ONCE(field) __atomic_load_n(&c->field, __ATOMIC_RELAXED)

FDR_NOINSTR static void snapshot(const struct fdr_control *c,
				 struct fdr_geometry *g)
{
	g->buffer_size = ONCE(buffer_size);
	g->nr_cpus = ONCE(nr_cpus);
	g->buffers_per_cpu = ONCE(buffers_per_cpu);
	g->nr_buffers = ONCE(nr_buffers);
	g->rings_offset = ONCE(rings_offset);
	g->descs_offset = ONCE(descs_offset);
	g->control_size = ONCE(control_size);
	g->map_size = 0;
}

/* The snapshot describes a region that fits inside map_len bytes. */
FDR_NOINSTR static int geometry_check(struct fdr_geometry *s, size_t map_len)
{
	struct fdr_geometry g;

	if (s->nr_cpus == 0 || s->buffers_per_cpu == 0 ||
	    (uint64_t)s->nr_cpus * s->buffers_per_cpu != s->nr_buffers)
		return -EBADMSG;
	if (fdr__geometry_compute(&g, s->buffer_size, s->buffers_per_cpu,
				  s->nr_cpus))
		return -EBADMSG;
	if (s->rings_offset < FDR_CONTROL_HEADER_SIZE ||
	    s->rings_offset + (uint64_t)s->nr_cpus * FDR_CPU_RING_SIZE >
		    s->control_size ||
	    s->descs_offset + (uint64_t)s->nr_buffers * FDR_BUFFER_DESC_SIZE >
		    s->control_size ||
	    s->rings_offset % 64 || s->descs_offset % 64 ||
	    s->control_size % fdr__page_size())
		return -EBADMSG;
	s->map_size = s->control_size + (uint64_t)s->nr_buffers * s->buffer_size;
	return s->map_size > map_len ? -EBADMSG : 0;
}

/*
 * A mapped control area must describe exactly the mapping we have: the
 * writer indexes buffers with these numbers and must never step outside.
 * On success *geom (if not NULL) is the snapshot that was checked.
 */
FDR_NOINSTR int fdr__control_validate(const struct fdr_control *c,
				      size_t map_len, struct fdr_geometry *geom)
{
	struct fdr_geometry g;
	int ret;

	if (map_len < FDR_CONTROL_HEADER_SIZE || ONCE(magic) != FDR_CONTROL_MAGIC)
		return -EBADMSG;
	if (ONCE(abi_version) != FDR_ABI_VERSION ||
	    ONCE(header_size) < FDR_CONTROL_HEADER_SIZE)
		return -EPROTO;
	snapshot(c, &g);
	ret = geometry_check(&g, map_len);
	if (ret == 0 && geom)
		*geom = g;
	return ret;
}

/*
 * The geometry the kernel reports in STATUS, laid out as the ABI fixes
 * it (rings right after the header, descriptors after the rings): what a
 * writer on the device indexes with, whatever the shared page says.
 */
FDR_NOINSTR int fdr__geometry_from_status(const struct fdr_status *st,
					  struct fdr_geometry *g)
{
	if (fdr__geometry_compute(g, st->buffer_size, st->buffers_per_cpu,
				  st->nr_cpus) ||
	    g->nr_buffers != st->nr_buffers || g->control_size != st->control_size ||
	    g->map_size != st->map_size)
		return -EBADMSG;
	return 0;
}

/* The same geometry, field by field. */
FDR_NOINSTR bool fdr__geometry_equal(const struct fdr_geometry *a,
				     const struct fdr_geometry *b)
{
	return a->buffer_size == b->buffer_size && a->nr_cpus == b->nr_cpus &&
	       a->buffers_per_cpu == b->buffers_per_cpu &&
	       a->nr_buffers == b->nr_buffers && a->rings_offset == b->rings_offset &&
	       a->descs_offset == b->descs_offset && a->control_size == b->control_size;
}

/*
 * A sized struct as the kernel reads it (copy_struct_from_user rules):
 * at least min bytes, only zero bytes past ours (else -E2BIG); *dst gets
 * the caller's usize bytes in our ksize, zero-filled past what it knew.
 */
FDR_NOINSTR int fdr__copy_sized(void *dst, size_t ksize, const void *src,
				size_t usize, size_t min)
{
	const unsigned char *s = src;

	if (usize < min)
		return -EINVAL;
	for (size_t i = ksize; i < usize; i++)
		if (s[i])
			return -E2BIG;
	memset(dst, 0, ksize);
	memcpy(dst, src, usize < ksize ? usize : ksize);
	return 0;
}

/*
 * struct fdr_init as the kernel checks it (copy_struct_from_user rules):
 * a VER0 caller (24 bytes) has no trigger; a larger struct with a zero
 * tail is accepted.  *out (may be NULL) gets the caller's struct in our
 * size, zero-filled past what the caller knew.  why (may be NULL, len
 * bytes) names the field a -EINVAL refuses.
 */
FDR_NOINSTR int fdr__init_cfg_check(const struct fdr_init *cfg,
				    struct fdr_init *out, char *why,
				    size_t len)
{
	struct fdr_init c;
	int ret;

	if (why && len)
		why[0] = 0;
	ret = fdr__copy_sized(&c, sizeof(c), cfg, cfg->size, FDR_INIT_SIZE_VER0);
	if (ret)
		return ret;
	c.size = sizeof(c);
	if (c.flags & ~FDR_INIT_FLAGS_ALL || c.reserved)
		return -EINVAL;
	if (c.trigger_fid < 0) {
		if (why)
			snprintf(why, len, "the trigger's function id %d is negative",
				 c.trigger_fid);
		return -EINVAL;
	}
	if (c.trigger_fid && !c.trigger_ns) {
		if (why)
			snprintf(why, len,
				 "a trigger function (id %d) needs a trigger duration",
				 c.trigger_fid);
		return -EINVAL;
	}
	if (c.trigger_holdoff_ms > FDR_TRIGGER_HOLDOFF_MAX_MS) {
		if (why)
			snprintf(why, len,
				 "the trigger holdoff %u ms is above the maximum %u ms (one hour)",
				 c.trigger_holdoff_ms, FDR_TRIGGER_HOLDOFF_MAX_MS);
		return -EINVAL;
	}
	if (out)
		*out = c;
	return 0;
}
