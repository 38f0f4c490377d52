// SPDX-License-Identifier: MIT
/* common_cmd.c - what the reading commands share: opening and reporting. */
#include <getopt.h>
#include <stdio.h>
#include <unistd.h>
#include "commands.h"
#include "data_source.h"

void report_log_error(const char *cmd, const char *path, const struct fdr_reader_error *err)
{
	fprintf(stderr, "fdr %s: %s: %s\n", cmd, path, err->message);
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
		fprintf(stderr, "fdr %s: --sym-map %s: at most %zu maps\n", cmd, path, max);
		return -1;
	}
	src->sym_maps[src->nsym_maps++] = path;
	return 0;
}

int load_symbols(const char *cmd, const struct symbol_sources *src,
		 const struct data_source *ds, struct symbols **out)
{
	char msg[512];
	int r = 0;

	*out = NULL;
	if (!src->instr_map && !src->nsym_maps)
		return fdr__data_symbols(cmd, ds, out);
	if (src->instr_map && src->nsym_maps) {
		fprintf(stderr, "fdr %s: give --instr-map or --sym-map, not both\n", cmd);
		return -1;
	}
	if (src->instr_map)
		r = symbols_from_instr_map(out, src->instr_map, msg, sizeof(msg));
	else if (src->nsym_maps)
		r = symbols_from_sym_maps(out, src->sym_maps, src->nsym_maps, msg, sizeof(msg));
	if (r)
		fprintf(stderr, "fdr %s: %s\n", cmd, msg);
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
		fprintf(stderr, "fdr %s: %s%s\n", cmd, err.message,
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


int cmd_parse_plain(int argc, char **argv, const char *cmd, const char *help,
		    const char **in)
{
	static const struct option opts[] = { { "help", no_argument, 0, 'h' }, { 0 } };
	int c;

	optind = 0;
	while ((c = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
		if (c == 'h') {
			fputs(help, stdout);
			return 0;
		}
		fputs(help, stderr);
		return 2;
	}
	if (optind < argc - 1) {
		fprintf(stderr, "fdr %s: expected at most one DIR or LOG\n%s", cmd, help);
		return 2;
	}
	*in = optind < argc ? argv[optind] : NULL;
	return -1;
}
