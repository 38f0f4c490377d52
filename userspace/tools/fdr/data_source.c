// SPDX-License-Identifier: MIT
/* data_source.c - DIR or LOG → log path, info, symbols (data_source.h). */
#include <errno.h>
#include <glob.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <fdr_reader.h>

#include "data_source.h"
#include "elf_info.h"
#include "record.h"
#include "symbols.h"

/* "trigger<TAB>fid<TAB>duration_ns<TAB>pid<TAB>tid"; anything else: not fired. */
static void read_trigger(struct data_trigger *t, const char *v)
{
	unsigned long long ns;
	char end;

	if (sscanf(v, "trigger\t%d\t%llu\t%d\t%d%c", &t->fid, &ns, &t->pid, &t->tid,
		   &end) == 4) {
		t->fired = true;
		t->duration_ns = ns;
	}
}

/* "N" (µs), "default" (libfdr's), anything else: not known (-1). */
static long read_threshold(const char *v)
{
	char *end;
	long n;

	if (!strcmp(v, "default"))
		return FDR_LIBFDR_THRESHOLD_US;
	n = strtol(v, &end, 10);
	return *v >= '0' && *v <= '9' && !*end && n >= 0 ? n : -1;
}

/* "PID<TAB>RECYCLED": 1 when no buffer was recycled, else 2 */
static int read_attached(const char *v)
{
	const char *tab = strchr(v, '\t');

	return tab && !strcmp(tab + 1, "0") ? 1 : 2;
}

static int info_line(const char *key, const char *v, void *arg)
{
	struct data_source *ds = arg;

	if (!strcmp(key, "fdr-data"))
		ds->have_info = true;
	else if (!strcmp(key, "exe"))
		snprintf(ds->exe, sizeof(ds->exe), "%s", v);
	else if (!strcmp(key, "build-id"))
		snprintf(ds->build_id, sizeof(ds->build_id), "%s", v);
	else if (!strcmp(key, "instrumentation"))
		snprintf(ds->instr, sizeof(ds->instr), "%s", v);
	else if (!strcmp(key, "finalized"))
		read_trigger(&ds->trigger, v);
	else if (!strcmp(key, "attached"))
		ds->attached = read_attached(v);
	else if (!strcmp(key, "threshold_us"))
		ds->threshold_us = read_threshold(v);
	else if (!strcmp(key, "args") && arg_specs_add_line(&ds->args, v))
		fprintf(stderr, "fdr: note: %s/info: args line '%.60s' does not parse: "
			"those values print as numbers\n", ds->dir, v);
	return 0;
}

static void read_info(struct data_source *ds)
{
	fdr__info_read(ds->dir, info_line, ds);
}

static void find_sym_maps(struct data_source *ds)
{
	char pat[PATH_MAX + 32];
	glob_t g;

	snprintf(pat, sizeof(pat), "%s/fdr-syms.*.map", ds->dir);
	if (glob(pat, 0, NULL, &g))
		return;
	ds->sym_maps = calloc(g.gl_pathc, sizeof(char *));
	for (size_t i = 0; ds->sym_maps && i < g.gl_pathc; i++)
		if ((ds->sym_maps[ds->nsym_maps] = strdup(g.gl_pathv[i])))
			ds->nsym_maps++;
	globfree(&g);
}

/* Is exe PROG?  prog_real: PROG's realpath, resolved once by the caller
 * ("" if it could not be); exe is resolved only when its text differs. */
static bool is_prog(const char *exe, const char *prog, const char *prog_real)
{
	char r[PATH_MAX];

	if (!strcmp(exe, prog) || !strcmp(exe, prog_real))
		return true;
	return prog_real[0] && realpath(exe, r) && !strcmp(r, prog_real);
}

/* Does a line of one of DIR's sym-maps name a function of module exe? */
static bool named_in_maps(const struct data_source *ds, const char *exe)
{
	size_t len = strlen(exe);
	bool found = false;
	char *line = NULL;
	size_t cap = 0;

	for (size_t i = 0; i < ds->nsym_maps && !found; i++) {
		FILE *f = fopen(ds->sym_maps[i], "re");

		while (f && !found && getline(&line, &cap, f) > 0) {
			char *t = line[0] == '#' ? NULL : strchr(line, '\t');

			t = t ? strchr(t + 1, '\t') : NULL;
			found = t && !strncmp(t + 1, exe, len) && t[1 + len] == '\t';
		}
		if (f)
			fclose(f);
	}
	free(line);
	return found;
}

/*
 * A process of the log that ran another instrumented program (PROG
 * exec()ed it) is named from DIR when fdr record or its hooks put that
 * program's functions there (Documentation/integrations.md, "Programs
 * that PROG runs"); else its ids are PROG's numbers or none.  Say so,
 * once per program, rather than name them wrongly in silence.
 */
static void warn_other_programs(const char *cmd, const struct data_source *ds)
{
	char path[PATH_MAX + 80], prog_real[PATH_MAX] = "", warned[4][PATH_MAX];
	struct fdr_thread_table *tt;
	struct fdr_reader_error err;
	size_t nwarned = 0;

	if (!ds->exe[0])
		return;
	snprintf(path, sizeof(path), "%s.threads", ds->log);
	if (fdr_thread_table_load(&tt, path, &err))
		return;	/* no side table: nothing known of the processes */
	if (!realpath(ds->exe, prog_real))
		prog_real[0] = '\0';
	for (size_t i = 0; i < fdr_thread_table_count(tt) && nwarned < 4; i++) {
		const struct fdr_thread_info *ti = fdr_thread_table_at(tt, i);
		bool seen = false;

		if (!strcmp(ti->exe, "unknown"))
			continue;
		for (size_t j = 0; j < nwarned; j++)
			seen = seen || !strcmp(warned[j], ti->exe);
		if (seen || is_prog(ti->exe, ds->exe, prog_real) || named_in_maps(ds, ti->exe))
			continue;
		snprintf(warned[nwarned++], PATH_MAX, "%s", ti->exe);
		fprintf(stderr, "fdr %s: warning: process %d ran %s, not %s: its "
			"functions are shown with %s's names, which are not theirs "
			"(record it on its own: fdr record -- %s)\n", cmd, ti->pid,
			ti->exe, ds->exe, ds->exe, ti->exe);
	}
	fdr_thread_table_free(tt);
}

/*
 * A DIR without sym-maps (recorded by an older fdr) is named from the
 * binary DIR/info names, only when it is there and is the one recorded:
 * a rebuilt PROG numbers its functions differently, and wrong names are
 * worse than ids.  Say why when it is not used.
 */
static void check_exe(const char *cmd, struct data_source *ds)
{
	struct fdr_elf_info now;
	bool known = ds->build_id[0] && strcmp(ds->build_id, "-");

	if (ds->nsym_maps || !ds->exe[0] || strcmp(ds->instr, "xray"))
		return;
	if (access(ds->exe, R_OK)) {
		fprintf(stderr, "fdr %s: warning: %s has no function names (recorded by an "
			"older fdr) and %s is not here (%s); functions are shown as #id "
			"(read it where %s is, or record again)\n", cmd, ds->dir, ds->exe,
			strerror(errno), ds->exe);
		return;
	}
	if (known && (fdr__elf_info(ds->exe, &now) || strcmp(now.build_id, ds->build_id))) {
		fprintf(stderr, "fdr %s: warning: %s is not the binary that was recorded "
			"(build-id %s) and %s has no function names of its own; functions "
			"are shown as #id (put the recorded binary back, or record again)\n",
			cmd, ds->exe, ds->build_id, ds->dir);
		return;
	}
	ds->exe_names = true;
}

int fdr__data_open(const char *cmd, const char *arg, struct data_source *ds)
{
	struct stat st;
	char tmp[PATH_MAX];

	memset(ds, 0, sizeof(*ds));
	ds->threshold_us = -1;
	if (!arg)
		arg = FDR_DEFAULT_DATA_DIR;
	if (stat(arg, &st)) {
		fprintf(stderr, "fdr %s: %s: %s%s\n", cmd, arg, strerror(errno),
			errno == ENOENT ? " (record one first: fdr record -- PROG)" : "");
		return 1;
	}
	if (S_ISDIR(st.st_mode)) {
		snprintf(ds->dir, sizeof(ds->dir), "%s", arg);
		snprintf(ds->log, sizeof(ds->log), "%s/" FDR_LOG_NAME, arg);
		if (access(ds->log, F_OK)) {
			fprintf(stderr, "fdr %s: %s holds no log (%s: %s)\n", cmd, arg,
				FDR_LOG_NAME, strerror(errno));
			return 1;
		}
	} else {
		snprintf(ds->log, sizeof(ds->log), "%s", arg);
		snprintf(tmp, sizeof(tmp), "%s", arg);
		snprintf(ds->dir, sizeof(ds->dir), "%s", dirname(tmp));
	}
	read_info(ds);
	find_sym_maps(ds);
	check_exe(cmd, ds);
	warn_other_programs(cmd, ds);
	return 0;
}

void fdr__data_close(struct data_source *ds)
{
	for (size_t i = 0; i < ds->nsym_maps; i++)
		free(ds->sym_maps[i]);
	free(ds->sym_maps);
	ds->sym_maps = NULL;
	ds->nsym_maps = 0;
	arg_specs_free(&ds->args);
}

int fdr__data_symbols(const char *cmd, const struct data_source *ds, struct symbols **out)
{
	char msg[512];
	int r = 0;

	*out = NULL;
	if (ds->nsym_maps) {
		r = symbols_from_sym_maps(out, (const char *const *)ds->sym_maps, ds->nsym_maps,
					  msg, sizeof(msg));
	} else if (ds->exe_names) {
		r = symbols_from_instr_map(out, ds->exe, msg, sizeof(msg));
	}
	if (r) {
		/* the numbers are still worth reading: go on with ids */
		fprintf(stderr, "fdr %s: warning: %s; functions are shown as #id\n", cmd, msg);
		*out = NULL;
	}
	return 0;
}
