// SPDX-License-Identifier: MIT
/* ring_facts.c - see ring_facts.h.  The table is text fdrd wrote, read
 * as any input: a line that does not parse is skipped. */
#include <stdio.h>
#include <string.h>
#include "ring_facts.h"

/* "NAME\t<n>\n": *v set when the line is NAME's. */
static bool field(const char *line, const char *name, uint64_t *v)
{
	size_t n = strlen(name);
	unsigned long long x;
	char end;

	if (strncmp(line, name, n) || line[n] != '\t' ||
	    sscanf(line + n + 1, "%llu%c", &x, &end) != 2 || end != '\n')
		return false;
	*v = x;
	return true;
}

bool ring_facts_read(const char *log, struct ring_facts *f)
{
	bool recycled = false, dropped = false;
	char path[1024], line[512];
	FILE *t;

	memset(f, 0, sizeof(*f));
	if ((size_t)snprintf(path, sizeof(path), "%s.threads", log) >= sizeof(path))
		return false;
	t = fopen(path, "r");
	if (!t)
		return false;
	while (fgets(line, sizeof(line), t)) {
		recycled |= field(line, "buffers_recycled", &f->buffers_recycled);
		dropped |= field(line, "records_dropped", &f->records_dropped);
	}
	fclose(t);
	return recycled && dropped;
}
