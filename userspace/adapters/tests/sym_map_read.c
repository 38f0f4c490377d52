// SPDX-License-Identifier: MIT
/* sym_map_read.c - see sym_map_read.h. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sym_map_read.h"

/* Room for one more entry at l->e[l->n]; false when out of memory. */
static bool grow(struct sym_list *l)
{
	struct sym_entry *e;

	if (l->n < l->cap)
		return true;
	e = realloc(l->e, (size_t)(l->cap ? 2 * l->cap : 64) * sizeof(*e));
	if (!e)
		return false;
	l->e = e;
	l->cap = l->cap ? 2 * l->cap : 64;
	return true;
}

void sym_list_free(struct sym_list *l)
{
	free(l->e);
	memset(l, 0, sizeof(*l));
}

static bool parse_map_line(struct sym_entry *e, char *line)
{
	char *field[4], *save = NULL, *end;
	int n = 0;

	line[strcspn(line, "\n")] = '\0';
	for (char *t = strtok_r(line, "\t", &save); t && n < 5;
	     t = strtok_r(NULL, "\t", &save))
		field[n < 4 ? n : 3] = t, n++;
	if (n != 4 || strncmp(field[3], "0x", 2))
		return false;
	e->fid = (uint32_t)strtoul(field[0], &end, 10);
	if (*end)
		return false;
	snprintf(e->symbol, sizeof(e->symbol), "%s", field[1]);
	snprintf(e->module, sizeof(e->module), "%s", field[2]);
	e->offset = strtoull(field[3] + 2, &end, 16);
	return *end == '\0';
}

int sym_map_read(struct sym_list *l, const char *path)
{
	FILE *f = fopen(path, "r");
	char line[1024];
	bool first = true;

	memset(l, 0, sizeof(*l));
	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		if (first)
			l->has_header = strncmp(line, "# fdr sym-map ", 14) == 0;
		first = false;
		if (line[0] == '#')
			continue;
		if (grow(l) && parse_map_line(&l->e[l->n], line))
			l->n++;
		else
			l->bad_lines++;
	}
	fclose(f);
	return 0;
}

int nm_read(struct sym_list *l, const char *path)
{
	FILE *f = fopen(path, "r");
	char line[512];

	memset(l, 0, sizeof(*l));
	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f) && grow(l)) {
		struct sym_entry *e = &l->e[l->n];
		char type;

		if (sscanf(line, "%" SCNx64 " %c %127s", &e->offset, &type,
			   e->symbol) == 3 && (type == 'T' || type == 't'))
			l->n++;
	}
	fclose(f);
	return 0;
}

const struct sym_entry *sym_by_name(const struct sym_list *l, const char *name)
{
	for (int i = 0; i < l->n; i++)
		if (strcmp(l->e[i].symbol, name) == 0)
			return &l->e[i];
	return NULL;
}

const struct sym_entry *sym_by_fid(const struct sym_list *l, uint32_t fid)
{
	for (int i = 0; i < l->n; i++)
		if (l->e[i].fid == fid)
			return &l->e[i];
	return NULL;
}
