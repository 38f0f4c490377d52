// SPDX-License-Identifier: MIT
/*
 * fdrlog - look at XRay FDR logs: dump, verify, convert, account.
 *
 * Exit status: 0 success, 1 the log is invalid or an operation failed,
 * 2 bad usage.  Errors go to stderr and name the file and the cause;
 * `convert -o FILE` writes through a temporary file renamed into place,
 * so a failed run leaves no partial output.
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "commands.h"

static void usage(FILE *f)
{
	fputs("usage: fdrlog <command> [options] FILE\n"
	      "Read LLVM XRay FDR logs (versions 1-5).\n\n"
	      "commands:\n"
	      "  dump     print every record with its byte offset\n"
	      "  verify   check the log; print the first error and exit 1 if invalid\n"
	      "  convert  --format yaml|chrome|perfetto: llvm-xray YAML, Chrome JSON, Perfetto protobuf\n"
	      "  account  per-function call count and latency statistics\n"
	      "  replay   each thread's call tree with durations (like uftrace replay)\n"
	      "  flame    a flame graph as a self-contained SVG\n\n"
	      "`fdrlog <command> --help` describes each command.\n", f);
}

static const struct command {
	const char *name;
	int (*run)(int argc, char **argv);
} commands[] = {
	{ "dump", cmd_dump },
	{ "verify", cmd_verify },
	{ "convert", cmd_convert },
	{ "account", cmd_account },
	{ "replay", cmd_replay },
	{ "flame", cmd_flame },
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
	fprintf(stderr, "fdrlog: unknown command '%s'; expected dump, verify, convert, account, replay or flame\n",
		argv[1]);
	return 2;
}
