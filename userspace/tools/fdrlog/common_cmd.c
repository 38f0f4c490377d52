// SPDX-License-Identifier: MIT
/* common_cmd.c - what fdrlog's subcommands share: opening and reporting. */
#include <stdio.h>
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

int load_symbols(const char *cmd, const char *instr_map, const char *sym_map,
		 struct symbols **out)
{
	char msg[512];
	int r = 0;

	*out = NULL;
	if (instr_map && sym_map) {
		fprintf(stderr, "fdrlog %s: give --instr-map or --sym-map, not both\n", cmd);
		return -1;
	}
	if (instr_map)
		r = symbols_from_instr_map(out, instr_map, msg, sizeof(msg));
	else if (sym_map)
		r = symbols_from_sym_map(out, sym_map, msg, sizeof(msg));
	if (r)
		fprintf(stderr, "fdrlog %s: %s\n", cmd, msg);
	return r;
}
