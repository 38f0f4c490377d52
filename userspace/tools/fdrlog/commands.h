/* SPDX-License-Identifier: MIT */
/* commands.h - fdrlog's subcommands and the helpers they share. */
#ifndef FDRLOG_COMMANDS_H
#define FDRLOG_COMMANDS_H

#include <fdr_reader.h>
#include "symbols.h"

int cmd_dump(int argc, char **argv);
int cmd_verify(int argc, char **argv);
int cmd_convert(int argc, char **argv);
int cmd_account(int argc, char **argv);

/* Open path, printing "fdrlog CMD: PATH: cause" on failure. */
struct fdr_log *open_log_or_report(const char *cmd, const char *path);
void report_log_error(const char *cmd, const char *path, const struct fdr_reader_error *err);
/* Load --instr-map / --sym-map (at most one may be given). */
int load_symbols(const char *cmd, const char *instr_map, const char *sym_map,
		 struct symbols **out);

#endif
