/* SPDX-License-Identifier: MIT */
/*
 * view_inputs.h - what replay and flame read before they draw: the log,
 * expanded and sorted, its names and its side table.
 */
#ifndef FDRLOG_VIEW_INPUTS_H
#define FDRLOG_VIEW_INPUTS_H

#include <fdr_reader.h>
#include "commands.h"
#include "data_source.h"

struct view_inputs {
	struct data_source ds;		/* ds.log: the log read */
	struct fdr_log *log;
	struct fdr_trace trace;
	struct symbols *syms;
	struct fdr_thread_table *threads;
	int have_trace, have_ds;
};

/* Open operand (DIR, LOG or NULL: ./fdr.data, as data_source.h finds
 * the log) and everything beside it, and check that the filters' names
 * name functions of the log (view_filter_check); 0, or after a message 1
 * (failed) or 2 (a filter names no function of the log). */
int view_inputs_load(struct view_inputs *in, const char *cmd, const char *operand,
		     const struct view_opts *opts);
void view_inputs_free(struct view_inputs *in);

#endif
