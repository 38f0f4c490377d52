/* SPDX-License-Identifier: MIT */
/*
 * fdr_reader.h - libfdrread: read, verify and expand XRay FDR logs.
 *
 * Reads FDR logs of versions 1 to 5 (uapi/linux/fdr_log.h has the record
 * layouts; Documentation/reader.md says what is checked).  No global state:
 * every call works on a struct fdr_log opened from a file (mmap'd) or from
 * a caller-provided buffer, which must outlive the log.
 *
 * Three ways to look at a log:
 *  - fdr_log_for_each_record(): every record in file order, as decoded
 *    (what `fdrlog dump` prints);
 *  - fdr_log_verify(): the structural check; the first error found;
 *  - fdr_trace_build(): the expanded events (absolute TSC, cpu, thread,
 *    process, args, payloads) exactly as LLVM 19's llvm-xray expands them,
 *    optionally stable-sorted by TSC; fdr_trace_stream(): the same events
 *    one at a time, in memory that does not grow with the events.
 *
 * Functions returning int return 0 on success and -1 on error, with
 * *err filled in (err may be NULL).
 */
#ifndef FDR_READER_H
#define FDR_READER_H

#include <stddef.h>
#include <stdint.h>
#include <linux/fdr_log.h>
#include <linux/fdr_sched.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The first problem found, and where. */
struct fdr_reader_error {
	uint64_t offset;	/* byte offset in the log of the record at fault */
	char record[24];	/* its kind ("Function", "NewBuffer", ...) or "" */
	char message[200];	/* "offset N: <record>: what was expected, what was found" */
};

struct fdr_log;

int fdr_log_open_file(struct fdr_log **out, const char *path,
		      struct fdr_reader_error *err);
int fdr_log_open_memory(struct fdr_log **out, const void *data, size_t size,
			struct fdr_reader_error *err);
void fdr_log_close(struct fdr_log *log);

/* The 32-byte file header, copied out (aligned). */
const struct fdr_log_header *fdr_log_get_header(const struct fdr_log *log);

/* ---- raw records --------------------------------------------------------- */

/* One decoded record.  Which fields are meaningful depends on kind. */
struct fdr_record {
	uint64_t offset;	/* of its first byte */
	uint32_t length;	/* bytes, including an event's payload */
	uint8_t is_metadata;
	uint8_t kind;		/* enum fdr_metadata_kind or enum fdr_function_kind */
	uint16_t cpu;		/* NewCPUId; custom event v1-v4 (bytes 13-14, as LLVM 19) */
	uint32_t func_id;	/* function record */
	uint32_t delta;		/* function record: unsigned TSC delta */
	int32_t id;		/* NewBuffer: tid; Pid: pid */
	int32_t event_size;	/* custom / typed event payload size */
	int32_t event_delta;	/* v5 custom event, typed event: signed TSC delta */
	uint16_t event_type;	/* typed event */
	uint32_t usec;		/* WalltimeMarker */
	uint64_t value;		/* NewCPUId/TSCWrap/custom(v1-4) TSC, Walltime seconds,
				   CallArgument, BufferExtents size */
	const uint8_t *payload;	/* custom / typed event bytes (event_size of them) */
};

/* Return non-zero from the callback to stop early (that value is returned). */
typedef int (*fdr_record_fn)(const struct fdr_record *rec, void *ctx);

/*
 * Decode every record in file order, following the version's framing
 * (extents, v1 padding).  Stops at the first decoding error (returns -1);
 * does not run the block state machine: fdr_log_verify() does.
 */
int fdr_log_for_each_record(const struct fdr_log *log, fdr_record_fn fn,
			    void *ctx, struct fdr_reader_error *err);

/* Name of a record kind: "Function Enter", "NewBuffer", ... */
const char *fdr_record_kind_name(int is_metadata, unsigned kind);

/* The whole structural check; 0 if valid. */
int fdr_log_verify(const struct fdr_log *log, struct fdr_reader_error *err);

/* ---- expanded events ----------------------------------------------------- */

/* XRay's RecordTypes, as llvm-xray prints them in "kind:". */
enum fdr_event_kind {
	FDR_EVENT_ENTER		= 0,
	FDR_EVENT_EXIT		= 1,
	FDR_EVENT_TAIL_EXIT	= 2,
	FDR_EVENT_ENTER_ARG	= 3,
	FDR_EVENT_CUSTOM	= 4,
	FDR_EVENT_TYPED		= 5,
};

struct fdr_event {
	uint64_t tsc;		/* absolute */
	uint64_t aux;		/* internal: first argument index or payload offset */
	uint32_t tid;
	uint32_t pid;
	int32_t func_id;	/* as LLVM: events keep the last function's id */
	uint32_t count;		/* internal: argument count or payload size */
	uint16_t cpu;
	uint16_t record_type;	/* XRay "type:" (typed event type, sticky as in LLVM) */
	uint8_t kind;		/* enum fdr_event_kind */
};

struct fdr_trace {
	struct fdr_event *events;	/* in expansion order */
	size_t count;
	uint32_t *order;		/* sorted view (NULL if not sorted) */
	uint64_t *args;			/* all call arguments */
	size_t nargs;
	const struct fdr_log *log;
};

#define FDR_TRACE_SORT_BY_TSC	1u

/* Expand a log; fails (like llvm-xray) if the log does not verify. */
int fdr_trace_build(struct fdr_trace *trace, const struct fdr_log *log,
		    unsigned flags, struct fdr_reader_error *err);
void fdr_trace_free(struct fdr_trace *trace);

/*
 * The same events without holding them: fn gets each event as the trace
 * unsorted would hold it (llvm-xray's expansion order: thread by thread,
 * each thread's buffers by wall time), with a trace t that holds just that
 * event (fdr_event_args, fdr_event_payload, fdr_event_drop_marker work on
 * it; both valid during the call only).  The log is verified (and its
 * buffers indexed) first: fn is not called for a log that does not verify.
 * Memory: the buffer index (a few dozen bytes a buffer) and one event
 * with up to FDR_STREAM_ARGS_MAX arguments (an event with more, which
 * only a crafted log has, keeps the first ones); the pages of a mapped
 * file are released as they are read.  Returns 0, -1 with *err, or fn's
 * non-zero return, which stops the walk.
 */
#define FDR_STREAM_ARGS_MAX 1024
typedef int (*fdr_event_fn)(const struct fdr_trace *t, const struct fdr_event *ev, void *ctx);
int fdr_trace_stream(const struct fdr_log *log, fdr_event_fn fn, void *ctx,
		     struct fdr_reader_error *err);
/*
 * The same, in the order of fdr_trace_build(..., FDR_TRACE_SORT_BY_TSC),
 * every argument kept: the log is walked once to find its ascending runs
 * of TSCs, then the runs are expanded side by side and merged.  Memory:
 * the buffer index and a few events a run; a log with over a thousand
 * runs, or an event with FDR_STREAM_ARGS_MAX arguments or more, is
 * expanded whole instead (fn cannot tell).  The mapped file's pages are
 * kept.  Returns as fdr_trace_stream.
 */
int fdr_trace_stream_sorted(const struct fdr_log *log, fdr_event_fn fn, void *ctx,
			    struct fdr_reader_error *err);

/* The i-th event in sorted order if sorted, else in expansion order. */
static inline const struct fdr_event *fdr_trace_at(const struct fdr_trace *t, size_t i)
{
	return &t->events[t->order ? t->order[i] : i];
}

/* Call arguments of an event (count in *n; NULL if none). */
const uint64_t *fdr_event_args(const struct fdr_trace *t, const struct fdr_event *ev,
			       uint32_t *n);
/* Payload of a custom or typed event (size in *n; NULL if none). */
const uint8_t *fdr_event_payload(const struct fdr_trace *t, const struct fdr_event *ev,
				 uint32_t *n);

/*
 * The drop marker (uapi/linux/fdr_log.h, Documentation/format.md): a
 * custom event of exactly FDR_DROP_EVENT_SIZE bytes that begins with the 8
 * bytes of FDR_DROP_EVENT_MAGIC.  A writer that found no free buffer
 * writes one first in its next buffer: that many records of the thread
 * are missing just before it.  Returns 1 and the count in *records (may
 * be NULL) for a marker; 0 for anything else, including custom events of
 * another size or magic.  The same rule for a raw record and for an
 * expanded event.
 */
int fdr_record_drop_marker(const struct fdr_record *rec, uint64_t *records);
int fdr_event_drop_marker(const struct fdr_trace *t, const struct fdr_event *ev,
			  uint64_t *records);

/* ---- the side table fdrd writes next to a log ---------------------------- */

/* One `thread` line of `<log>.threads` (Documentation/fdrd.md). */
struct fdr_thread_info {
	int32_t tid;
	int32_t pid;
	const char *comm;	/* unescaped; "unknown" when fdrd did not know */
	const char *exe;
};

struct fdr_thread_table;

/* Read a `.threads` file; every line checked, values unescaped. */
int fdr_thread_table_load(struct fdr_thread_table **out, const char *path,
			  struct fdr_reader_error *err);
void fdr_thread_table_free(struct fdr_thread_table *table);
/* Rows in file order (order of each thread's first buffer). */
size_t fdr_thread_table_count(const struct fdr_thread_table *table);
const struct fdr_thread_info *fdr_thread_table_at(const struct fdr_thread_table *table,
						  size_t i);
/* The first row of thread tid, NULL if none (or table NULL). */
const struct fdr_thread_info *fdr_thread_table_find(const struct fdr_thread_table *table,
						    int32_t tid);

/* The call whose latency trigger ended the recording: the table's
 * `finalize trigger` line (Documentation/fdrd.md), NULL if none, if the
 * trigger was fired by hand (fid 0), or if the line does not parse. */
struct fdr_trigger_info {
	int32_t pid, tid, fid;
	uint64_t duration_ns;	/* as its writer measured it */
};
const struct fdr_trigger_info *fdr_thread_table_trigger(const struct fdr_thread_table *table);

/* ---- the scheduling file fdrd writes next to a log (<log>.sched) --------- */

/*
 * What a thread was doing (Documentation/format.md, "The scheduling
 * file"): on a CPU, runnable (waiting for one), or blocked in one of three
 * ways; unknown before its first record when the kernel's rings lost some.
 */
enum fdr_thread_state {
	FDR_THREAD_ON_CPU	= 0,
	FDR_THREAD_RUNNABLE	= 1,	/* preempted, or woken: waits for a CPU */
	FDR_THREAD_SLEEPING	= 2,	/* blocked, interruptible */
	FDR_THREAD_DISK		= 3,	/* blocked, uninterruptible ("D") */
	FDR_THREAD_OTHER	= 4,	/* blocked: stopped, traced, exiting */
	FDR_THREAD_UNKNOWN	= 5,
};

/* Ticks of an interval by state; blocked = sleeping + disk + other. */
struct fdr_sched_split {
	uint64_t on_cpu, runnable, blocked, unknown;
};

/* One thread's records, TSC order, records of unknown type left out. */
struct fdr_sched_thread {
	int32_t tid, pid;
	uint8_t state_before;			/* before records[0] */
	size_t count;
	const struct fdr_sched_record *records;
	const uint8_t *state_after;		/* after records[i]: enum fdr_thread_state */
};

struct fdr_sched;

/*
 * Read and check a .sched file (magic, version, sizes, length = 64 + 32 x
 * nr_records); an error means the file is unusable as a whole.
 */
int fdr_sched_open(struct fdr_sched **out, const char *path, struct fdr_reader_error *err);
int fdr_sched_open_memory(struct fdr_sched **out, const void *data, size_t size,
			  struct fdr_reader_error *err);
void fdr_sched_close(struct fdr_sched *s);
/* The 64-byte file header, copied out. */
const struct fdr_sched_file *fdr_sched_get_header(const struct fdr_sched *s);
/* Records of a type this reader does not know (left out). */
uint64_t fdr_sched_skipped(const struct fdr_sched *s);

/* Threads by ascending tid; find: NULL if tid has no record. */
size_t fdr_sched_thread_count(const struct fdr_sched *s);
const struct fdr_sched_thread *fdr_sched_thread_at(const struct fdr_sched *s, size_t i);
const struct fdr_sched_thread *fdr_sched_thread_find(const struct fdr_sched *s, int32_t tid);

/* The state of thread tid at tsc (the last record at or before it decides). */
enum fdr_thread_state fdr_sched_state_at(const struct fdr_sched *s, int32_t tid, uint64_t tsc);
/*
 * Where the ticks of [tsc_a, tsc_b) on thread tid went; all zero when
 * tsc_b <= tsc_a.  O(log threads + log records of the thread).
 */
void fdr_sched_thread_split(const struct fdr_sched *s, int32_t tid, uint64_t tsc_a,
			    uint64_t tsc_b, struct fdr_sched_split *out);

#ifdef __cplusplus
}
#endif

#endif /* FDR_READER_H */
