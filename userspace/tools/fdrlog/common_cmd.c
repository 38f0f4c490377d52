// SPDX-License-Identifier: MIT
/* common_cmd.c - what fdrlog's subcommands share: opening and reporting. */
#include <stdio.h>
#include <unistd.h>
#include "commands.h"

void report_log_error(const char *cmd, const char *path, const struct fdr_reader_error *err)
{
	fprintf(stderr, "fdrlog %s: %s: %s\n", cmd, path, err->message);
}

struct fdr_log *open_log_or_report(const char *cmd, const char *path)
{
	struct fdr_reader_error err;
	struct fdr_log *log;

	if (fdr_log_open_file(&log, path, &err)) {
		report_log_error(cmd, path, &err);
		return NULL;
	}
	return log;
}

int add_sym_map(const char *cmd, struct symbol_sources *src, const char *path)
{
	size_t max = sizeof(src->sym_maps) / sizeof(src->sym_maps[0]);

	if (src->nsym_maps == max) {
		fprintf(stderr, "fdrlog %s: --sym-map %s: at most %zu maps\n", cmd, path, max);
		return -1;
	}
	src->sym_maps[src->nsym_maps++] = path;
	return 0;
}

int load_symbols(const char *cmd, const struct symbol_sources *src, struct symbols **out)
{
	char msg[512];
	int r = 0;

	*out = NULL;
	if (src->instr_map && src->nsym_maps) {
		fprintf(stderr, "fdrlog %s: give --instr-map or --sym-map, not both\n", cmd);
		return -1;
	}
	if (src->instr_map)
		r = symbols_from_instr_map(out, src->instr_map, msg, sizeof(msg));
	else if (src->nsym_maps)
		r = symbols_from_sym_maps(out, src->sym_maps, src->nsym_maps, msg, sizeof(msg));
	if (r)
		fprintf(stderr, "fdrlog %s: %s\n", cmd, msg);
	return r;
}

int side_file_path(char *buf, size_t size, const char *log_path, const char *suffix,
		   const char *given)
{
	if (given)
		return snprintf(buf, size, "%s", given) >= (int)size;
	return snprintf(buf, size, "%s%s", log_path, suffix) >= (int)size || access(buf, F_OK);
}

int load_thread_table(const char *cmd, const char *log_path,
		      const struct thread_source *src, struct fdr_thread_table **out)
{
	struct fdr_reader_error err;
	char path[4096];

	*out = NULL;
	/* fdrd's table next to the log, when there is one */
	if (src->disabled || side_file_path(path, sizeof(path), log_path, ".threads", src->path))
		return 0;
	if (fdr_thread_table_load(out, path, &err)) {
		fprintf(stderr, "fdrlog %s: %s%s\n", cmd, err.message,
			src->path ? "" : " (--no-threads ignores it)");
		return -1;
	}
	return 0;
}

int sched_load(const char *who, const char *log_path, const struct sched_source *src,
	       struct fdr_sched **out)
{
	struct fdr_reader_error err;
	char path[4096];

	*out = NULL;
	if (src->disabled || side_file_path(path, sizeof(path), log_path, ".sched", src->path))
		return 0;
	if (fdr_sched_open(out, path, &err) == 0)
		return 0;
	if (src->path && access(path, R_OK)) {
		fprintf(stderr, "%s: --sched %s: %s\n", who, path, err.message);
		return -1;
	}
	/* hostile or from another version: the calls are still worth a report */
	fprintf(stderr, "%s: %s: %s; reading the log without it\n", who, path, err.message);
	return 0;
}

