// SPDX-License-Identifier: MIT
/*
 * layout.c - the geometry of a region, computed for the embedded backend
 * with the ABI's fdr_region_offsets_compute(), and fdr_region_view(): the
 * one check of a mapped region before anyone indexes it.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include "internal.h"

/* Larger regions are refused: almost surely a typo in a size. */
#define FDR_MAX_REGION_BYTES	(64ull << 30)
#define FDR_MAX_BUFFER_SIZE	(1ull << 30)

__FDR_NO_INSTRUMENT size_t fdr__page_size(void)
{
	static size_t page;

	if (!page)
		page = (size_t)sysconf(_SC_PAGESIZE);
	return page;
}

__FDR_NO_INSTRUMENT int fdr__geometry_compute(struct fdr_geometry *g,
				      uint64_t buffer_size,
				      uint32_t buffers_per_cpu,
				      uint32_t nr_cpus)
{
	struct fdr_region_offsets o;

	memset(g, 0, sizeof(*g));
	if (fdr_region_offsets_compute(nr_cpus, buffers_per_cpu, buffer_size,
				       fdr__page_size(), &o) ||
	    buffer_size > FDR_MAX_BUFFER_SIZE)
		return -EINVAL;
	if (o.nr_buffers > UINT32_MAX / 2 ||
	    (uint64_t)o.nr_buffers * buffer_size > FDR_MAX_REGION_BYTES)
		return -ENOMEM;
	g->buffer_size = buffer_size;
	g->nr_cpus = nr_cpus;
	g->buffers_per_cpu = buffers_per_cpu;
	g->nr_buffers = o.nr_buffers;
	g->rings_offset = (uint32_t)o.rings;
	g->descs_offset = (uint32_t)o.descs;
	g->control_size = o.buffers;
	g->map_size = o.map_size;
	return 0;
}

/*
 * Each geometry word of a shared page, read once.  Any process that maps
 * the region writable can change the page at any time, so a field read
 * twice can differ between the check and the use: the view is made from
 * this copy only.  Each check returns what did not fit, or NULL.
 */
#define ONCE(field) __atomic_load_n(&c->field, __ATOMIC_RELAXED)

/* The one refusal that is -EPROTO: the page may be sound, but not ours. */
static const char other_abi[] = "unsupported ABI version";

__FDR_NO_INSTRUMENT static const char *from_page(const struct fdr_control *c,
					 size_t map_len,
					 struct fdr_region_view *v)
{
	if (map_len < FDR_CONTROL_HEADER_SIZE)
		return "mapping smaller than the control header";
	if (ONCE(magic) != FDR_CONTROL_MAGIC)
		return "bad control magic";
	if (ONCE(abi_version) != FDR_ABI_VERSION ||
	    ONCE(header_size) < FDR_CONTROL_HEADER_SIZE)
		return other_abi;
	v->buffer_size = ONCE(buffer_size);
	v->nr_cpus = ONCE(nr_cpus);
	v->buffers_per_cpu = ONCE(buffers_per_cpu);
	v->nr_buffers = ONCE(nr_buffers);
	v->rings_offset = ONCE(rings_offset);
	v->descs_offset = ONCE(descs_offset);
	v->control_size = ONCE(control_size);
	v->page_size = fdr__page_size();
	v->map_size = 0;	/* computed: the page has no such word */
	return NULL;
}

/*
 * The kernel's numbers: since VER3 its offsets (*has_offsets) and page
 * size, else ours.
 */
__FDR_NO_INSTRUMENT static const char *from_status(const struct fdr_status *st,
					   struct fdr_region_view *v,
					   bool *has_offsets)
{
	bool ver3 = st->size >= FDR_STATUS_SIZE_VER3 && st->descs_offset;

	v->buffer_size = st->buffer_size;
	v->nr_cpus = st->nr_cpus;
	v->buffers_per_cpu = st->buffers_per_cpu;
	v->nr_buffers = st->nr_buffers;
	v->control_size = st->control_size;
	v->map_size = st->map_size;
	v->page_size = st->size >= FDR_STATUS_SIZE_VER3 && st->page_size ?
			       st->page_size : fdr__page_size();
	*has_offsets = ver3;
	if (!ver3)
		return NULL;
	v->rings_offset = st->rings_offset;
	v->descs_offset = st->descs_offset;
	return st->buffers_offset == st->control_size ?
		       NULL : "buffers_offset is not control_size";
}

/* An older kernel's offsets: the ABI's for its geometry. */
__FDR_NO_INSTRUMENT static const char *abi_offsets(struct fdr_region_view *v)
{
	struct fdr_region_offsets o;

	if (fdr_region_offsets_compute(v->nr_cpus, v->buffers_per_cpu,
				       v->buffer_size, v->page_size, &o))
		return "nr_cpus * buffers_per_cpu overflows";
	v->rings_offset = o.rings;
	v->descs_offset = o.descs;
	return NULL;
}

/* The sizes: non-zero, whole pages, the control area inside the mapping. */
__FDR_NO_INSTRUMENT static const char *sizes_fit(const struct fdr_region_view *v,
					 size_t map_len)
{
	uint64_t p = v->page_size;

	if (!v->nr_cpus || !v->buffers_per_cpu || !v->nr_buffers)
		return "no CPUs or no buffers";
	if (!p || p & (p - 1))
		return "the page size is not a power of two";
	if (!v->buffer_size || v->buffer_size % p)
		return "buffer_size is not a page multiple";
	if (!v->control_size || v->control_size % p || v->control_size > map_len)
		return "control_size outside the mapping";
	return NULL;
}

/* An array of n 64-byte entries at off ends by end, aligned. */
__FDR_NO_INSTRUMENT static bool lines_fit(uint64_t off, uint64_t n, uint64_t end)
{
	return off % 64 == 0 && off <= end && n <= (end - off) / 64;
}

/*
 * Header, rings, descriptors in that order inside the control area; the
 * buffers after it, as many as the pools hold (map_size 0: computed).
 */
__FDR_NO_INSTRUMENT static const char *parts_fit(struct fdr_region_view *v)
{
	uint64_t nr = v->nr_buffers, end;

	if (v->rings_offset < FDR_CONTROL_HEADER_SIZE ||
	    !lines_fit(v->rings_offset, v->nr_cpus, v->descs_offset))
		return "rings outside the control area";
	if (!lines_fit(v->descs_offset, nr, v->control_size))
		return "descriptors outside the control area";
	if ((uint64_t)v->nr_cpus * v->buffers_per_cpu != nr)
		return "nr_buffers is not nr_cpus * buffers_per_cpu";
	if (v->buffer_size > (UINT64_MAX - v->control_size) / nr)
		return "buffers outside the mapping";
	end = v->control_size + nr * v->buffer_size;
	if (v->map_size && v->map_size != end)
		return "map_size is not control_size + nr_buffers * buffer_size";
	v->map_size = end;
	return NULL;
}

__FDR_NO_INSTRUMENT static const char *view_check(struct fdr_region_view *v,
					  const void *map, size_t map_len,
					  const struct fdr_status *trusted)
{
	const char *why = NULL;
	bool has_offsets = true;

	if (trusted)
		why = from_status(trusted, v, &has_offsets);
	else
		why = from_page(map, map_len, v);
	if (!why)
		why = sizes_fit(v, map_len);
	if (!why && !has_offsets)
		why = abi_offsets(v);
	return why ? why : parts_fit(v);
}

FDR_API int fdr_region_view(struct fdr_region_view *view, const void *map,
			    size_t map_len, const struct fdr_status *trusted)
{
	struct fdr_region_view v;
	unsigned char *base = (unsigned char *)map;

	if (!view)
		return -EINVAL;
	memset(&v, 0, sizeof(v));
	v.why = map ? view_check(&v, map, map_len, trusted) : "no mapping";
	if (v.why) {
		memset(view, 0, sizeof(*view));
		view->why = v.why;
		return !map ? -EINVAL : v.why == other_abi ? -EPROTO : -EBADMSG;
	}
	v.base = base;
	v.len = map_len;
	v.rings = (struct fdr_cpu_ring *)(base + v.rings_offset);
	v.descs = (struct fdr_buffer_desc *)(base + v.descs_offset);
	v.buffers = v.map_size <= map_len ? base + v.control_size : NULL;
	*view = v;
	return 0;
}

/* The same geometry, field by field. */
__FDR_NO_INSTRUMENT bool fdr__view_same_geometry(const struct fdr_region_view *a,
					 const struct fdr_region_view *b)
{
	return a->buffer_size == b->buffer_size && a->nr_cpus == b->nr_cpus &&
	       a->buffers_per_cpu == b->buffers_per_cpu &&
	       a->nr_buffers == b->nr_buffers && a->rings_offset == b->rings_offset &&
	       a->descs_offset == b->descs_offset &&
	       a->control_size == b->control_size && a->map_size == b->map_size;
}

/*
 * A sized struct as the kernel reads it (copy_struct_from_user rules):
 * at least min bytes, only zero bytes past ours (else -E2BIG); *dst gets
 * the caller's usize bytes in our ksize, zero-filled past what it knew.
 */
__FDR_NO_INSTRUMENT int fdr__copy_sized(void *dst, size_t ksize, const void *src,
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
__FDR_NO_INSTRUMENT int fdr__init_cfg_check(const struct fdr_init *cfg,
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
