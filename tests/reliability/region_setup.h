/* SPDX-License-Identifier: MIT */
/* region_setup.h - bring a target to a freshly INITIALIZED region. */
#ifndef REL_REGION_SETUP_H
#define REL_REGION_SETUP_H

#include <stdbool.h>
#include <stdint.h>
#include <fdr.h>

static inline bool target_is_embedded(const char *target)
{
	return target && !__builtin_strncmp(target, FDR_EMBEDDED_PREFIX,
					    sizeof(FDR_EMBEDDED_PREFIX) - 1);
}

/* Open target, take it back to UNINITIALIZED (an embedded region is
 * destroyed and made anew), INIT with the geometry.  *ctl is the open
 * handle on success; on failure a message went to stderr. */
int region_fresh(struct fdr_ctl **ctl, const char *target,
		 uint64_t buffer_size, uint32_t buffers_per_cpu,
		 uint32_t init_flags);
/* Take it back to UNINITIALIZED, without INIT (device) or destroy it
 * (embedded); the handle is closed. */
void region_teardown(struct fdr_ctl *ctl, const char *target);

#endif
