// SPDX-License-Identifier: MIT
/* xray_names.c - see xray_names.h. */
#include <stdio.h>
#include <string.h>

#include "xray_names.h"

int xray_names_load(struct xray_names *n, const char *path)
{
	FILE *f = fopen(path, "r");
	char line[512];

	memset(n, 0, sizeof(*n));
	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		const char *fn = strstr(line, "function-name: ");
		unsigned id;

		if (sscanf(line, "- { id: %u,", &id) != 1 || !fn ||
		    id >= XRAY_NAMES_MAX)
			continue;
		sscanf(fn + strlen("function-name: "), "%63[^, }]", n->name[id]);
	}
	fclose(f);
	return 0;
}

bool xray_name_known(const struct xray_names *n, uint32_t id)
{
	return id < XRAY_NAMES_MAX && n->name[id][0];
}

const char *xray_name(const struct xray_names *n, uint32_t id)
{
	static char buf[16];

	if (xray_name_known(n, id))
		return n->name[id];
	snprintf(buf, sizeof(buf), "#%u", id);
	return buf;
}
