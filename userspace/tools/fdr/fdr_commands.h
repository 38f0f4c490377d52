/* SPDX-License-Identifier: MIT */
/* fdr_commands.h - fdr's subcommands. */
#ifndef FDR_COMMANDS_H
#define FDR_COMMANDS_H

int fdr__cmd_record(int argc, char **argv);
int fdr__cmd_report(int argc, char **argv);
int fdr__cmd_convert(int argc, char **argv);
int fdr__cmd_replay(int argc, char **argv);
int fdr__cmd_flame(int argc, char **argv);
int fdr__cmd_info(int argc, char **argv);

#endif
