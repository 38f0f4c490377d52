/* SPDX-License-Identifier: MIT */
/*
 * fid_assign.h - stable 28-bit function ids for -finstrument-functions.
 *
 * The id depends only on (module, link-time address), never on ASLR or
 * on the order functions are first called:
 *  - a function of the executable whose link-time address is below 2^27
 *    gets that address as its id (unique by construction, and the same
 *    number `nm` prints), unless the executable is a program that the one
 *    fdr record started exec()ed (prog_image.h): then it is hashed too;
 *  - any other function gets 2^27 + a 27-bit hash of (module file name,
 *    address); on a collision with a different function already seen in
 *    this process, the next free id is taken (only then does the id
 *    depend on the order of first calls).
 * The sym-map file of each process (sym_map.h) is the authority.
 */
#ifndef FDR_FID_ASSIGN_H
#define FDR_FID_ASSIGN_H

#include <stdint.h>

#include "module_lookup.h"

#define FDR_FID_DIRECT_LIMIT	(1u << 27)
#define FDR_FID_REGISTRY_BITS	17
#define FDR_FID_REGISTRY_SIZE	(1u << FDR_FID_REGISTRY_BITS)

struct fdr_fid_owner {
	uint32_t fid;		/* 0: empty slot */
	uint32_t module;	/* fdr_module.index, or UINT32_MAX if unknown */
	uint64_t vaddr;		/* link-time address (run-time if unknown) */
};

/* Under the slow-path lock: the id of (m, vaddr), claimed on first use;
 * m may be NULL for code outside any module.  0 when the registry is full. */
uint32_t fdr__fid_claim(const struct fdr_module *m, uint64_t vaddr);

/*
 * Library calls (plt_ids.c): the id of key (the imported name and the
 * function's link-time address in m), always hashed, with the bits of
 * must set in every candidate (an XRay build keeps bit 23 set: XRay's
 * own ids are (object << 24) | n, n counting from 1).  Such ids are not
 * visited by fdr__fid_for_each: key is no address to name.
 */
uint32_t fdr__fid_claim_call(const struct fdr_module *m, uint64_t key, uint32_t must);

/* Visit every claimed id, e.g. to rewrite the sym-map after fork(). */
void fdr__fid_for_each(void (*fn)(const struct fdr_fid_owner *o, void *arg),
		      void *arg);

#endif /* FDR_FID_ASSIGN_H */
