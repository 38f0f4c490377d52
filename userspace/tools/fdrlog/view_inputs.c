// SPDX-License-Identifier: MIT
/* view_inputs.c - load a log with its names and side table for a view. */
#include <stdio.h>
#include <string.h>
#include "view_filter.h"
#include "view_inputs.h"

int view_inputs_load(struct view_inputs *in, const char *cmd, const char *operand,
		     const struct view_opts *opts)
{
	struct fdr_reader_error err;
	const char *path;
	char who[64];
	int r;

	memset(in, 0, sizeof(*in));
	if (fdr__data_open(cmd, operand, &in->ds))
		return 1;
	in->have_ds = 1;
	path = in->ds.log;
	in->log = open_log_or_report(cmd, path);
	if (!in->log) {
		view_inputs_free(in);
		return 1;
	}
	if (load_symbols(cmd, &opts->syms, &in->ds, &in->syms) ||
	    load_thread_table(cmd, path, &opts->threads, &in->threads)) {
		view_inputs_free(in);
		return 1;
	}
	if (fdr_trace_build(&in->trace, in->log, FDR_TRACE_SORT_BY_TSC, &err)) {
		report_log_error(cmd, path, &err);
		view_inputs_free(in);
		return 1;
	}
	in->have_trace = 1;
	snprintf(who, sizeof(who), "fdr %s", cmd);
	r = view_filter_check(&opts->filter, &in->trace, in->syms, who);
	if (r)
		view_inputs_free(in);
	return r;
}

void view_inputs_free(struct view_inputs *in)
{
	if (in->have_trace)
		fdr_trace_free(&in->trace);
	fdr_thread_table_free(in->threads);
	symbols_free(in->syms);
	if (in->log)
		fdr_log_close(in->log);
	if (in->have_ds)
		fdr__data_close(&in->ds);
	memset(in, 0, sizeof(*in));
}
