/* SPDX-License-Identifier: MIT */
/*
 * commands.h - the reading commands of fdr (dump, verify, convert,
 * account, replay, flame, graph) and the helpers they share.  Each takes
 * DIR (the log `fdr record` left there), LOG, or nothing (./fdr.data),
 * through fdr's data_source.h, which the program linking them provides.
 * `fdrlog` is only another name of fdr (Documentation/reader.md).
 */
#ifndef FDRLOG_COMMANDS_H
#define FDRLOG_COMMANDS_H

#include <fdr_reader.h>
#include "filter_opts.h"
#include "symbols.h"

int cmd_dump(int argc, char **argv);
int cmd_verify(int argc, char **argv);
int cmd_convert(int argc, char **argv);
int cmd_account(int argc, char **argv);
int cmd_replay(int argc, char **argv);
int cmd_flame(int argc, char **argv);
int cmd_graph(int argc, char **argv);

struct data_source;

/* Open path, printing "fdrlog CMD: PATH: cause" on failure. */
struct fdr_log *open_log_or_report(const char *cmd, const char *path);
void report_log_error(const char *cmd, const char *path, const struct fdr_reader_error *err);
/* What --instr-map and --sym-map (repeatable) asked for. */
struct symbol_sources {
	const char *instr_map;
	const char *sym_maps[256];
	size_t nsym_maps;
};

/* Record one --sym-map; -1 (with a message) if there are too many. */
int add_sym_map(const char *cmd, struct symbol_sources *src, const char *path);
/* Load them (instr-map and sym-maps exclude each other); when none is
 * given, the names fdr record left beside the log of ds (data_source.h);
 * *out NULL if there are none. */
int load_symbols(const char *cmd, const struct symbol_sources *src,
		 const struct data_source *ds, struct symbols **out);

/* "Usage: no option but -h/--help, at most one DIR|LOG": -1 to go on with
 * *in (NULL: none given), else the exit status (help 0, usage error 2). */
int cmd_parse_plain(int argc, char **argv, const char *cmd, const char *help,
		    const char **in);

/* --threads FILE / --no-threads: fdrd's side table, default LOG.threads. */
struct thread_source {
	const char *path;	/* NULL: LOG.threads if it exists */
	int disabled;
};

/*
 * The path of a file beside the log: given, else LOG + suffix when that
 * exists; 0, or 1 when there is none (or it does not fit buf).
 */
int side_file_path(char *buf, size_t size, const char *log_path, const char *suffix,
		   const char *given);

/* Load the table (*out NULL if there is none); -1 with a message. */
int load_thread_table(const char *cmd, const char *log_path,
		      const struct thread_source *src, struct fdr_thread_table **out);

/* --sched FILE / --no-sched: fdrd's scheduling file, default LOG.sched. */
struct sched_source {
	const char *path;	/* NULL: LOG.sched if it exists */
	int disabled;
};

/*
 * *out: the file, or NULL when there is none or it is unusable (the
 * cause on stderr, "WHO: PATH: ...": a report is still worth having
 * without it); -1 only when --sched FILE cannot be read at all.
 */
int sched_load(const char *who, const char *log_path, const struct sched_source *src,
	       struct fdr_sched **out);

/* Long-only options' getopt codes, above any character and
 * filter_opts.h's. */
enum {
	OPT_THREADS = 0x300, OPT_NO_THREADS, OPT_SCHED, OPT_NO_SCHED, OPT_NO_SORT,
	OPT_FOR_LLVM, OPT_ATTACHED,
};

/* The options replay, flame and convert share (cmd_view_opts.c): the
 * filters (filter_opts.h), --instr-map, --sym-map, --threads, --no-threads. */
struct view_opts {
	struct filter_opts filter;
	struct symbol_sources syms;
	struct thread_source threads;
};

#define VIEW_LONG_OPTIONS \
	FILTER_LONG_OPTIONS, \
	{ "instr-map", required_argument, 0, 'm' }, { "sym-map", required_argument, 0, 's' }, \
	{ "threads", required_argument, 0, OPT_THREADS }, \
	{ "no-threads", no_argument, 0, OPT_NO_THREADS }

/* Take option c: 0 taken, 1 not one of these, 2 usage error (message). */
int cmd_view_option(int c, const char *arg, const char *cmd, struct view_opts *v);

#endif
