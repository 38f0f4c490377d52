// SPDX-License-Identifier: MIT
/* symbols_instr_map_none.c - the static (VM) fdr has no ELF reader. */
#include <stdio.h>
#include "symbols_internal.h"

int symbols_from_instr_map(struct symbols **out, const char *path, char *msg, size_t msg_size)
{
	*out = NULL;
	snprintf(msg, msg_size, "%s: --instr-map is not available in this static build "
		 "of fdr (no libdw); use the host's fdr", path);
	return -1;
}
