// SPDX-License-Identifier: MIT
/* cmd_verify.c - `fdr verify [DIR|LOG]...`: exit 0 if every log is valid. */
#include <getopt.h>
#include <stdio.h>
#include "commands.h"
#include "data_source.h"

static const char help[] =
	"usage: fdr verify [-q] [DIR|LOG]...\n"
	"Check each log (of DIR: the one `fdr record` left there; none given:\n"
	"./fdr.data's): header, record framing for its version (v1 padding,\n"
	"v2+ buffer extents), record kinds and sizes, and the order of records\n"
	"in each block (llvm-xray's block state machine).  For a valid log print\n"
	"\"LOG: ok\" (unless -q); for an invalid one print the first error:\n"
	"byte offset, record kind, what was expected and what was found.\n"
	"Exit status 0 if all logs are valid, 1 otherwise.\n";

static int verify_one(const char *operand, int quiet)
{
	struct fdr_reader_error err;
	struct data_source ds;
	struct fdr_log *log;
	const char *path;
	int r;

	if (fdr__data_open("verify", operand, &ds))
		return 1;
	path = ds.log;
	log = open_log_or_report("verify", path);
	if (!log) {
		fdr__data_close(&ds);
		return 1;
	}
	r = fdr_log_verify(log, &err);
	if (r)
		report_log_error("verify", path, &err);
	else if (!quiet)
		printf("%s: ok (FDR version %u)\n", path, fdr_log_get_header(log)->version);
	fdr_log_close(log);
	fdr__data_close(&ds);
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
	if (optind == argc)
		return verify_one(NULL, quiet);
	for (int i = optind; i < argc; i++)
		status |= verify_one(argv[i], quiet);
	return status;
}
