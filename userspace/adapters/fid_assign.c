// SPDX-License-Identifier: MIT
/*
 * fid_assign.c - claim stable ids (see fid_assign.h for the scheme).
 *
 * The registry maps id -> owner so that a hash collision is noticed; it is
 * only touched from the slow path, under its lock.
 */
#include <string.h>

#include "fid_assign.h"
#include "prog_image.h"
#include <linux/fdr.h>

#define HASHED_MASK	(FDR_FID_DIRECT_LIMIT - 1)
#define NO_MODULE	UINT32_MAX
/* an owner's module field for a library call's key (fdr__fid_claim_call) */
#define CALL_KEYED	0x40000000u

static struct fdr_fid_owner registry[FDR_FID_REGISTRY_SIZE];
static uint32_t registry_used;

/* FNV-1a over the module's file name, then the address bytes: the same
 * file name and address give the same id in every run and directory. */
__FDR_NO_INSTRUMENT static uint32_t hash_function(const struct fdr_module *m,
				       uint64_t vaddr)
{
	const char *name = "?";
	uint64_t h = 0xcbf29ce484222325ull;

	if (m) {
		const char *slash = strrchr(m->path, '/');

		name = slash ? slash + 1 : m->path;
	}
	for (const char *p = name; *p; p++)
		h = (h ^ (unsigned char)*p) * 0x100000001b3ull;
	for (int i = 0; i < 8; i++)
		h = (h ^ ((vaddr >> (8 * i)) & 0xff)) * 0x100000001b3ull;
	return (uint32_t)(h ^ (h >> 32));
}

__FDR_NO_INSTRUMENT static struct fdr_fid_owner *slot_for(uint32_t fid)
{
	uint32_t i = (fid * 0x9E3779B1u) >> (32 - FDR_FID_REGISTRY_BITS);

	while (registry[i].fid && registry[i].fid != fid)
		i = (i + 1) & (FDR_FID_REGISTRY_SIZE - 1);
	return &registry[i];
}

__FDR_NO_INSTRUMENT static uint32_t first_candidate(const struct fdr_module *m,
					 uint64_t vaddr)
{
	/* a program PROG exec()ed hashes its ids: the direct ones are PROG's */
	if (m && m->is_main && vaddr > 0 && vaddr < FDR_FID_DIRECT_LIMIT &&
	    fdr__image_is_prog())
		return (uint32_t)vaddr;
	return FDR_FID_DIRECT_LIMIT | (hash_function(m, vaddr) & HASHED_MASK);
}

/* The first free slot from fid for (module, key), or the one it has;
 * a collision steps inside the hashed half, keeping the bits of must. */
__FDR_NO_INSTRUMENT static uint32_t claim(uint32_t module, uint64_t key, uint32_t fid,
					  uint32_t must)
{
	for (;;) {
		struct fdr_fid_owner *o = slot_for(fid);

		if (o->fid == 0) {
			/* keep the registry at most 3/4 full for short probes */
			if (registry_used >= FDR_FID_REGISTRY_SIZE / 4 * 3)
				return 0;
			*o = (struct fdr_fid_owner){ fid, module, key };
			registry_used++;
			return fid;
		}
		if (o->module == module && o->vaddr == key)
			return fid;
		fid = FDR_FID_DIRECT_LIMIT | ((fid + 1) & HASHED_MASK) | must;
	}
}

__FDR_NO_INSTRUMENT uint32_t fdr__fid_claim(const struct fdr_module *m, uint64_t vaddr)
{
	return claim(m ? m->index : NO_MODULE, vaddr, first_candidate(m, vaddr), 0);
}

__FDR_NO_INSTRUMENT uint32_t fdr__fid_claim_call(const struct fdr_module *m, uint64_t key,
					      uint32_t must)
{
	uint32_t module = (m ? m->index : CALL_KEYED - 1) | CALL_KEYED;

	return claim(module, key,
		     FDR_FID_DIRECT_LIMIT | (hash_function(m, key) & HASHED_MASK) | must, must);
}

__FDR_NO_INSTRUMENT void fdr__fid_for_each(void (*fn)(const struct fdr_fid_owner *o,
					  void *arg), void *arg)
{
	for (uint32_t i = 0; i < FDR_FID_REGISTRY_SIZE; i++)
		if (registry[i].fid && (registry[i].module == NO_MODULE ||
					!(registry[i].module & CALL_KEYED)))
			fn(&registry[i], arg);
}
