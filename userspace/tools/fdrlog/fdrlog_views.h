/* SPDX-License-Identifier: MIT */
/*
 * fdrlog_views.h - fdrlog's commands and views for other tools (the `fdr`
 * front door): link build/tools/fdrlog/libfdrlog.a (everything of fdrlog
 * but main) and build/reader/libfdrread.a, with -ldw -lelf -lz -lstdc++
 * -pthread, and -I userspace/tools/fdrlog.
 *
 * Command level: argv as fdrlog's, argv[0] the command name, e.g.
 *   char *av[] = { "replay", "-F", "main", "fdr.data/log.xray", NULL };
 *   optind = 0;			// getopt state: reset before each call
 *   status = cmd_replay(4, av);	// 0, 1 (failed, message on stderr), 2 (usage)
 * Messages say "fdrlog <command>: ...".
 *
 * View level (convert.h, view_filter.h, view_inputs.h): load a log with
 * view_inputs_load(), then write_replay(), write_flame(),
 * write_llvm_export(), write_chrome() or write_yaml() into an
 * out_buffer (out_buffer.h) opened on any fd.
 */
#ifndef FDRLOG_VIEWS_H
#define FDRLOG_VIEWS_H

#include "commands.h"
#include "convert.h"
#include "out_buffer.h"
#include "view_filter.h"
#include "view_inputs.h"

#endif
