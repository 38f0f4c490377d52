// SPDX-License-Identifier: MIT
/*
 * target.c - turn a target string into a device path or a shm object name.
 *
 * NULL means $FDR_TARGET, else /dev/fdr.  "embedded:NAME" is the shared
 * memory object /fdr-NAME (/dev/shm/fdr-NAME).  Anything else is a path to
 * a device node.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "internal.h"

/* NAME becomes part of a file name: keep it to a safe alphabet. */
__FDR_NO_INSTRUMENT static bool embedded_name_ok(const char *name)
{
	size_t n = strlen(name);

	if (n == 0 || n > FDR_NAME_MAX)
		return false;
	for (size_t i = 0; i < n; i++) {
		char ch = name[i];

		if (!((ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') ||
		      (ch >= '0' && ch <= '9') || ch == '-' || ch == '_' ||
		      ch == '.'))
			return false;
	}
	return name[0] != '.';
}

__FDR_NO_INSTRUMENT int fdr__target_parse(struct fdr_target *t, const char *spec)
{
	size_t plen = strlen(FDR_EMBEDDED_PREFIX);

	memset(t, 0, sizeof(*t));
	if (!spec || !*spec)
		spec = getenv("FDR_TARGET");
	if (!spec || !*spec)
		spec = FDR_DEFAULT_DEVICE;
	if (strlen(spec) > FDR_NAME_MAX) {
		snprintf(t->spec, sizeof(t->spec), "%.40s...", spec);
		return -ENAMETOOLONG;
	}
	snprintf(t->spec, sizeof(t->spec), "%s", spec);
	if (strncmp(spec, FDR_EMBEDDED_PREFIX, plen) == 0) {
		const char *name = spec + plen;

		t->kind = FDR_TARGET_EMBEDDED;
		if (!embedded_name_ok(name))
			return -EINVAL;
		snprintf(t->shm_name, sizeof(t->shm_name), "%s%s",
			 FDR_EMBEDDED_SHM_PREFIX, name);
		snprintf(t->path, sizeof(t->path), "%s%s", FDR_SHM_DIR,
			 t->shm_name);
		return 0;
	}
	t->kind = FDR_TARGET_DEVICE;
	snprintf(t->path, sizeof(t->path), "%s", spec);
	return 0;
}
