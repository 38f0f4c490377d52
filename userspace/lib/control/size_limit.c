// SPDX-License-Identifier: MIT
/* size_limit.c - fdr__size_limit_check (fdr_size_limit.h). */
#include <errno.h>
#include <sys/resource.h>

#include "fdr_size_limit.h"
#include "internal.h"

__FDR_NO_INSTRUMENT int fdr__size_limit_check(uint64_t size)
{
	struct rlimit r;

	if (getrlimit(RLIMIT_FSIZE, &r) || r.rlim_cur == RLIM_INFINITY)
		return 0;
	return size > (uint64_t)r.rlim_cur ? -EFBIG : 0;
}
