// SPDX-License-Identifier: MIT
/*
 * fdr - the front door: record a program's function calls and read them
 * (`fdr record -- ./prog`, then `fdr report`).  fdrctl and fdrd stay the
 * plumbing; fdr runs their code in-process.  Every reading command is
 * here; `fdrlog` is only another name of this program (a link to it,
 * `fdrlog dump LOG` being `fdr dump LOG`: Documentation/reader.md).
 */
#include <stdio.h>
#include <string.h>

#include "commands.h"
#include "fdr_commands.h"

static void usage(FILE *f)
{
	fputs("usage: fdr <command> [options]\n"
	      "Record and read function-call traces of programs built with fdr-cc.\n\n"
	      "commands:\n"
	      "  record   run a program and record its calls into fdr.data/\n"
	      "  report   functions by total and self time, call counts\n"
	      "  replay   the call tree of every thread, with durations and arguments\n"
	      "  flame    a flame graph as one self-contained SVG\n"
	      "  graph    callers and callees of a function, aggregated (as uftrace graph)\n"
	      "  convert  --format chrome|perfetto|yaml: Chrome JSON, Perfetto protobuf, llvm-xray YAML\n"
	      "  info     what was recorded: machine, program, run, recording\n"
	      "  account  llvm-xray account's per-function latency table\n"
	      "  dump     every record of the log with its byte offset\n"
	      "  verify   check the log; the first error, exit status 1 if invalid\n\n"
	      "`fdr <command> --help` describes each command; man fdr has the rest.\n"
	      "Quick start:  fdr-cc -O2 -o prog prog.c && fdr record -- ./prog && fdr report\n",
	      f);
}

static const struct command {
	const char *name;
	int (*run)(int argc, char **argv);
} commands[] = {
	{ "record", fdr__cmd_record },
	{ "report", fdr__cmd_report },
	{ "replay", cmd_replay },
	{ "flame", cmd_flame },
	{ "graph", cmd_graph },
	{ "convert", cmd_convert },
	{ "info", fdr__cmd_info },
	{ "account", cmd_account },
	{ "dump", cmd_dump },
	{ "verify", cmd_verify },
};

int main(int argc, char **argv)
{
	if (argc < 2) {
		usage(stderr);
		return 2;
	}
	if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h") || !strcmp(argv[1], "help")) {
		usage(stdout);
		return 0;
	}
	for (size_t i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
		if (!strcmp(argv[1], commands[i].name))
			return commands[i].run(argc - 1, argv + 1);
	fprintf(stderr, "fdr: unknown command '%s'; expected record, report, replay, flame, "
		"graph, convert, info, account, dump or verify\n",
		argv[1]);
	return 2;
}
