/* SPDX-License-Identifier: MIT */
/*
 * fdrlog_views.h - the reading commands and views for the `fdr` front
 * door: link build/tools/fdrlog/libfdrlog.a and build/reader/libfdrread.a,
 * with -ldw -lelf -lz -lstdc++ -pthread, -I userspace/tools/fdrlog, and
 * provide data_source.h's functions (../fdr/data_source.c).
 *
 * Command level: argv as `fdr CMD`'s, argv[0] the command name, e.g.
 *   char *av[] = { "replay", "-F", "main", "fdr.data", NULL };
 *   optind = 0;			// getopt state: reset before each call
 *   status = cmd_replay(4, av);	// 0, 1 (failed, message on stderr), 2 (usage)
 * Messages say "fdr <command>: ...".
 *
 * View level (convert.h, view_filter.h, view_inputs.h): load a log with
 * view_inputs_load(), then write_replay(), write_flame(), write_graph(),
 * write_llvm_export(), write_chrome() or write_yaml() into an
 * out_buffer (out_buffer.h) opened on any fd.
 */
#ifndef FDRLOG_VIEWS_H
#define FDRLOG_VIEWS_H

#include "commands.h"
#include "convert.h"
#include "graph.h"
#include "out_buffer.h"
#include "view_filter.h"
#include "view_inputs.h"

#endif
