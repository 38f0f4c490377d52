/* SPDX-License-Identifier: MIT */
/* convert.h - the output formats of `fdrlog convert` and `fdrlog account`. */
#ifndef FDRLOG_CONVERT_H
#define FDRLOG_CONVERT_H

#include <stdbool.h>
#include <fdr_reader.h>
#include "out_buffer.h"
#include "symbols.h"

/* llvm-xray convert -f yaml's text (symbolized like -y when syms != NULL). */
void write_yaml(struct out_buffer *o, const struct fdr_trace *t,
		const struct symbols *syms);
/* The pieces, for writers that add records of their own (llvm_export.c):
 * the header up to "records:", and one record line; mark non-NULL
 * replaces the record's data. */
struct yaml_thread_text {
	uint32_t tid, pid;
	uint8_t len, valid;
	char text[64];	/* ", thread: 4294967295, process: 4294967295" + spill */
};
struct yaml_cache { struct yaml_thread_text e[64]; };	/* zero it first */
void yaml_header(struct out_buffer *o, const struct fdr_log_header *h);
void yaml_record(struct out_buffer *o, const struct fdr_trace *t, const struct fdr_event *ev,
		 const struct symbols *syms, struct yaml_cache *cache, const char *mark);
/* The record lines of t's events (all CPUs, in order; fb as
 * format_in_parallel_with's). */
struct format_buffers;
void yaml_records(struct out_buffer *o, const struct fdr_trace *t, const struct symbols *syms,
		  struct format_buffers *fb);
/* write_yaml of the log sorted by TSC, streamed (yaml_stream.c): memory
 * is a batch of events, not the whole trace.  1 with *err when the log
 * does not verify (nothing written then) or changed while read. */
int write_yaml_stream(struct out_buffer *o, const struct fdr_log *log,
		      const struct symbols *syms, struct fdr_reader_error *err);

/* YAML that llvm-xray-19 account accepts for any log (llvm_export.c):
 * sorted by TSC, an Enter (data "fdr-entry-lost") for every Exit whose
 * Enter the ring overwrote, an Exit (data "fdr-exit-lost") for every frame
 * an exit further down closed.  Counts what it added in *added_enters and
 * *added_exits; -1 on out of memory. */
int write_llvm_export(struct out_buffer *o, const struct fdr_trace *t, const struct symbols *syms,
		      size_t *added_enters, size_t *added_exits);

struct arg_specs;
/* Chrome trace-event JSON; args (may be NULL): fdr record -A/-R's specs,
 * the calls' values typed by them ("arguments", "retval"); threads (may
 * be NULL): fdrd's side table, for real pids and process/thread names;
 * sched (may be NULL): the thread states and wakeups (chrome_sched.h). */
void write_chrome(struct out_buffer *o, const struct fdr_trace *t, const struct symbols *syms,
		  const struct arg_specs *args, const struct fdr_thread_table *threads,
		  const struct fdr_sched *sched);

/* Names from the side table (chrome_writer.c), shared with perfetto_writer.c:
 * a comm or exe fdrd knew (not empty, not "unknown"); a process's name,
 * its executable's base name, else its main thread's command, else
 * "pid N" in tmp. */
bool thread_name_known(const char *s);
const char *thread_table_process_name(const struct fdr_thread_table *tt, int32_t pid,
				      char *tmp, size_t len);

/* Perfetto's protobuf trace (perfetto_writer.c, Documentation/perfetto.md):
 * the same threads, calls, typed values and scheduling data as
 * write_chrome. */
void write_perfetto(struct out_buffer *o, const struct fdr_trace *t, const struct symbols *syms,
		    const struct arg_specs *args, const struct fdr_thread_table *threads,
		    const struct fdr_sched *sched);
/* The same from the log itself, streamed (fdr_trace_stream): memory does
 * not grow with the events; each thread's calls in the log's order (the
 * trace unsorted).  -1 with *err when the log does not verify (nothing
 * written then); write errors in o->error. */
int write_perfetto_stream(struct out_buffer *o, const struct fdr_log *log,
			  const struct symbols *syms, const struct arg_specs *args,
			  const struct fdr_thread_table *threads, const struct fdr_sched *sched,
			  struct fdr_reader_error *err);

struct filter_opts;
/* uftrace-replay-like call trees per thread (replay.c), with the times
 * off CPU of sched (may be NULL), of what the filters show (filter_opts.h;
 * their names checked before: view_filter_check); attached: the log
 * starts at an fdr record -p attach with no buffer recycled, so a missing
 * entry is a call entered before it.  -1 on out of memory. */
/* args: the argument specs of fdr record -A/-R (NULL: none; values then
 * print in uftrace's auto format). */
int write_replay(struct out_buffer *o, const struct fdr_trace *t, const struct symbols *syms,
		 const struct arg_specs *args, const struct fdr_thread_table *threads, const struct fdr_sched *sched,
		 const struct filter_opts *filter, bool attached);

/* A self-contained SVG flame graph (flame.c) of what the filters show;
 * -1 on out of memory. */
int write_flame(struct out_buffer *o, const struct fdr_trace *t, const struct symbols *syms,
		const struct filter_opts *filter, const char *title);

enum account_sort { SORT_FUNC, SORT_COUNT, SORT_MIN, SORT_MED, SORT_P90, SORT_P99,
		    SORT_MAX, SORT_SUM };
struct account_options {
	enum account_sort sort;
	int descending;
	size_t top;		/* 0: all */
	const struct fdr_sched *sched;	/* non-NULL: on-CPU, runnable, blocked columns */
};
/* Per-function latency table; -1 on out of memory. */
int write_account(struct out_buffer *o, const struct fdr_trace *t,
		  const struct symbols *syms, const struct account_options *opt);

#endif
