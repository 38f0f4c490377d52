// SPDX-License-Identifier: MIT
/*
 * symbols_sym_map.c - read the -finstrument-functions adapter's id table:
 * UTF-8 text, one function per line, "<fid>\t<symbol>\t<module>\t<hex
 * offset>", '#' starts a comment line, symbol "?" when unknown (then the
 * function prints as "@(<module>+<offset>)").
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "symbols_internal.h"

/* Split "<fid>\t<symbol>\t<module>\t<offset>"; the module is everything
 * between the second and the last tab. */
static int split_fields(char *line, char *field[4])
{
	char *t1 = strchr(line, '\t'), *t2 = t1 ? strchr(t1 + 1, '\t') : NULL;
	char *t3 = t2 ? strrchr(t2 + 1, '\t') : NULL;

	if (!t3)
		return -1;
	*t1 = *t2 = *t3 = 0;
	field[0] = line;
	field[1] = t1 + 1;
	field[2] = t2 + 1;
	field[3] = t3 + 1;
	return 0;
}

static char *unknown_name(const char *module, unsigned long long off)
{
	const char *base = strrchr(module, '/');
	char *name = malloc(strlen(module) + 40);

	if (name)
		sprintf(name, "@(%s+0x%llx)", base ? base + 1 : module, off);
	return name;
}

static int parse_line(struct symbols *s, char *line, const char *path, size_t lineno,
		      char *msg, size_t msg_size)
{
	unsigned long long fid, off;
	char *field[4], *end, *name;

	if (split_fields(line, field)) {
		snprintf(msg, msg_size, "%s:%zu: expected 4 tab-separated fields "
			 "<fid> <symbol> <module> <hex offset>", path, lineno);
		return -1;
	}
	errno = 0;
	fid = strtoull(field[0], &end, 10);
	if (*end || !*field[0] || errno || fid == 0 || fid > INT32_MAX) {
		snprintf(msg, msg_size, "%s:%zu: function id '%s': expected a number "
			 "from 1 to %d", path, lineno, field[0], INT32_MAX);
		return -1;
	}
	off = strtoull(field[3], &end, 16);
	if (*end || !*field[3] || errno) {
		snprintf(msg, msg_size, "%s:%zu: offset '%s': expected a hex number",
			 path, lineno, field[3]);
		return -1;
	}
	name = strcmp(field[1], "?") ? symbols_demangled_copy(field[1]) : unknown_name(field[2], off);
	if (!name || symbols_add(s, (int32_t)fid, off, name)) {
		snprintf(msg, msg_size, "%s: out of memory", path);
		return -1;
	}
	return 0;
}

static int parse_file(struct symbols *s, FILE *f, const char *path, char *msg, size_t msg_size)
{
	char *line = NULL;
	size_t cap = 0, lineno = 0;
	ssize_t len;
	int r = 0;

	while (!r && (len = getline(&line, &cap, f)) >= 0) {
		lineno++;
		while (len && (line[len - 1] == '\n' || line[len - 1] == '\r'))
			line[--len] = 0;
		if (len == 0 || line[0] == '#')
			continue;
		r = parse_line(s, line, path, lineno, msg, msg_size);
	}
	if (!r && ferror(f)) {
		snprintf(msg, msg_size, "%s: read error: %s", path, strerror(errno));
		r = -1;
	}
	free(line);
	return r;
}

static int load_file(struct symbols *s, const char *path, char *msg, size_t msg_size)
{
	FILE *f = fopen(path, "r");
	int r;

	if (!f) {
		snprintf(msg, msg_size, "cannot open symbol map %s: %s", path, strerror(errno));
		return -1;
	}
	r = parse_file(s, f, path, msg, msg_size);
	fclose(f);
	return r;
}

int symbols_from_sym_maps(struct symbols **out, const char *const *paths, size_t npaths,
			  char *msg, size_t msg_size)
{
	struct symbols *s = symbols_new();
	int32_t conflict;

	*out = NULL;
	if (!s) {
		snprintf(msg, msg_size, "%s: out of memory", paths[0]);
		return -1;
	}
	for (size_t i = 0; i < npaths; i++) {
		if (load_file(s, paths[i], msg, msg_size)) {
			symbols_free(s);
			return -1;
		}
	}
	conflict = symbols_seal(s);
	if (conflict) {
		snprintf(msg, msg_size, "%s%s: function id %d is listed twice with different "
			 "names or offsets", paths[0], npaths > 1 ? " and the other maps" : "",
			 conflict);
		symbols_free(s);
		return -1;
	}
	*out = s;
	return 0;
}
