/* SPDX-License-Identifier: MIT */
/*
 * sym_map_read.h - read a sym-map file (sym_map.h has the format) and an
 * `nm` listing, to check one against the other.
 */
#ifndef ADAPTERS_SYM_MAP_READ_H
#define ADAPTERS_SYM_MAP_READ_H

#include <stdbool.h>
#include <stdint.h>

struct sym_entry {
	uint32_t fid;
	char symbol[128];
	char module[256];
	uint64_t offset;
};

struct sym_list {
	struct sym_entry *e;	/* malloc'd; sym_list_free() */
	int n;
	int cap;
	int bad_lines;		/* lines that are not comments and not 4 fields */
	bool has_header;	/* first line is "# fdr sym-map ..." */
};

/* Returns 0, or -1 if the file cannot be read. */
int sym_map_read(struct sym_list *l, const char *path);
/* An `nm` listing: "<hex address> <type> <name>" lines. */
int nm_read(struct sym_list *l, const char *path);

void sym_list_free(struct sym_list *l);

const struct sym_entry *sym_by_name(const struct sym_list *l, const char *name);
const struct sym_entry *sym_by_fid(const struct sym_list *l, uint32_t fid);

#endif /* ADAPTERS_SYM_MAP_READ_H */
