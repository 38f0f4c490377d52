// SPDX-License-Identifier: MIT
/* cmd_verify.c - `fdrlog verify FILE...`: exit 0 if every log is valid. */
#include <getopt.h>
#include <stdio.h>
#include "commands.h"

static const char help[] =
	"usage: fdrlog verify [-q] FILE...\n"
	"Check each log: header, record framing for its version (v1 padding,\n"
	"v2+ buffer extents), record kinds and sizes, and the order of records\n"
	"in each block (llvm-xray's block state machine).  For a valid log print\n"
	"\"FILE: ok\" (unless -q); for an invalid one print the first error:\n"
	"byte offset, record kind, what was expected and what was found.\n"
	"Exit status 0 if all logs are valid, 1 otherwise.\n";

static int verify_one(const char *path, int quiet)
{
	struct fdr_reader_error err;
	struct fdr_log *log = open_log_or_report("verify", path);
	int r;

	if (!log)
		return 1;
	r = fdr_log_verify(log, &err);
	if (r)
		report_log_error("verify", path, &err);
	else if (!quiet)
		printf("%s: ok (FDR version %u)\n", path, fdr_log_get_header(log)->version);
	fdr_log_close(log);
	return r ? 1 : 0;
}

int cmd_verify(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "help", no_argument, 0, 'h' }, { "quiet", no_argument, 0, 'q' }, { 0 }
	};
	int c, quiet = 0, status = 0;

	while ((c = getopt_long(argc, argv, "hq", opts, NULL)) != -1) {
		if (c == 'h') {
			fputs(help, stdout);
			return 0;
		}
		if (c != 'q') {
			fputs(help, stderr);
			return 2;
		}
		quiet = 1;
	}
	if (optind >= argc) {
		fprintf(stderr, "fdrlog verify: expected at least one FILE\n%s", help);
		return 2;
	}
	for (int i = optind; i < argc; i++)
		status |= verify_one(argv[i], quiet);
	return status;
}
