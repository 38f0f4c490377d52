/* SPDX-License-Identifier: MIT */
/* fdr_commands.h - fdr's own subcommands (the other reading commands:
 * ../fdrlog/commands.h). */
#ifndef FDR_COMMANDS_H
#define FDR_COMMANDS_H

int fdr__cmd_record(int argc, char **argv);
int fdr__cmd_report(int argc, char **argv);
int fdr__cmd_info(int argc, char **argv);

#endif
