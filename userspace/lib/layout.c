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
 * A mapped control area must describe exactly the mapping we have: the
 * writer indexes buffers with these numbers and must never step outside.
 */
FDR_NOINSTR int fdr__control_validate(const struct fdr_control *c,
				      size_t map_len)
{
	struct fdr_geometry g;

	if (map_len < FDR_CONTROL_HEADER_SIZE || c->magic != FDR_CONTROL_MAGIC)
		return -EBADMSG;
	if (c->abi_version != FDR_ABI_VERSION ||
	    c->header_size < FDR_CONTROL_HEADER_SIZE)
		return -EPROTO;
	if (c->nr_cpus == 0 || c->buffers_per_cpu == 0 ||
	    (uint64_t)c->nr_cpus * c->buffers_per_cpu != c->nr_buffers)
		return -EBADMSG;
	if (fdr__geometry_compute(&g, c->buffer_size, c->buffers_per_cpu,
				  c->nr_cpus))
		return -EBADMSG;
	if (c->rings_offset + (uint64_t)c->nr_cpus * FDR_CPU_RING_SIZE >
		    c->control_size ||
	    c->descs_offset + (uint64_t)c->nr_buffers * FDR_BUFFER_DESC_SIZE >
		    c->control_size ||
	    c->rings_offset % 64 || c->descs_offset % 64 ||
	    c->control_size % fdr__page_size())
		return -EBADMSG;
	if (c->control_size + (uint64_t)c->nr_buffers * c->buffer_size >
	    map_len)
		return -EBADMSG;
	return 0;
}

/* struct fdr_init as the kernel checks it (copy_struct_from_user rules). */
FDR_NOINSTR int fdr__init_cfg_check(const struct fdr_init *cfg)
{
	if (cfg->size < FDR_INIT_SIZE_VER0)
		return -EINVAL;
	if (cfg->size > sizeof(*cfg)) {
		const unsigned char *tail = (const unsigned char *)(cfg + 1);

		for (size_t i = 0; i < cfg->size - sizeof(*cfg); i++)
			if (tail[i])
				return -E2BIG;
	}
	if (cfg->flags & ~FDR_INIT_FLAGS_ALL || cfg->reserved)
		return -EINVAL;
	return 0;
}
