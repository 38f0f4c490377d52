/* SPDX-License-Identifier: MIT */
/*
 * internal.h - libfdrread internals shared between its files.
 *
 * The pipeline mirrors LLVM 19's loader (the format draft
 * ../shared/FORMAT.md §4.4): a producer decodes records, an indexer cuts
 * them into blocks (one per NewBuffer) and runs the block state machine on
 * each, the blocks of each (pid, tid) are ordered by wall time, and an
 * expander turns them into events.
 */
#ifndef FDR_READER_INTERNAL_H
#define FDR_READER_INTERNAL_H

#include <stdbool.h>
#include <stdint.h>
#include <string.h>
#include <fdr_bytes.h>
#include <fdr_reader.h>

struct fdr_log {
	const uint8_t *data;
	size_t size;
	struct fdr_log_header header;
	void *mapping;		/* non-NULL when we mmap'd the file */
	size_t mapping_size;
};

/*
 * count more bytes of a file-mapped log were read (*read_since: the
 * reader's count since the last drop): every LOG_RELEASE_BYTES,
 * drop the mapping's pages (MADV_DONTNEED; they come back from the page
 * cache if read again), so a pass over a log of any size keeps a bounded
 * resident set.  Nothing for a caller's buffer.
 */
#define LOG_RELEASE_BYTES (4u << 20)
void log_release_pages(const struct fdr_log *log);
static inline void log_pages_read(const struct fdr_log *log, uint64_t *read_since,
				  uint64_t count)
{
	*read_since += count;
	if (*read_since >= LOG_RELEASE_BYTES) {
		log_release_pages(log);
		*read_since = 0;
	}
}

/* printf-style error with offset and record kind; always returns -1. */
int reader_fail(struct fdr_reader_error *err, uint64_t offset, const char *record,
		const char *fmt, ...) __attribute__((format(printf, 4, 5)));

/* ---- producer (record_producer.c) ---------------------------------------- */

/* Where the producer is; copying it saves a restart point. */
struct producer {
	const struct fdr_log *log;
	uint64_t off;
	uint64_t remaining;	/* v2+: bytes left in the current buffer */
	uint64_t buffer_start;	/* v1: offset of the last NewBuffer, or UINT64_MAX */
};

void producer_init(struct producer *p, const struct fdr_log *log);
/* 1: a record in *rec; 0: end of log; -1: error in *err. */
int producer_next(struct producer *p, struct fdr_record *rec, struct fdr_reader_error *err);

/* ---- block state machine (block_verifier.c) ------------------------------- */

enum verifier_state {
	VS_UNKNOWN, VS_BUFFER_EXTENTS, VS_NEW_BUFFER, VS_WALLCLOCK, VS_PID,
	VS_NEW_CPU_ID, VS_TSC_WRAP, VS_CUSTOM_EVENT, VS_TYPED_EVENT,
	VS_FUNCTION, VS_CALL_ARG, VS_END_OF_BUFFER, VS_NR
};

enum verifier_state verifier_state_of_kind(int is_metadata, unsigned kind);
enum verifier_state verifier_state_of(const struct fdr_record *rec);
/* May a record of state `to` follow one of state `from` in a block? */
bool verifier_allows(enum verifier_state from, enum verifier_state to);
/* May a block end with a record of this state? */
bool verifier_can_end(enum verifier_state state);
int verifier_step(enum verifier_state *state, const struct fdr_record *rec,
		  struct fdr_reader_error *err);
int verifier_finish(enum verifier_state state, uint64_t offset,
		    struct fdr_reader_error *err);

/* ---- blocks (block_index.c) ----------------------------------------------- */

struct block {
	struct producer start;	/* restart point: producing from here replays it */
	uint64_t nrecords;	/* records produced, BufferExtents included */
	uint64_t pid;
	int32_t tid;
	uint32_t wall_usec;
	uint64_t wall_sec;
	uint32_t group;		/* index of its (pid, tid) in first-seen order */
};

struct block_index {
	struct block *blocks;	/* in file order */
	size_t nblocks;
	uint32_t *group_order;	/* groups in LLVM's DenseMap iteration order */
	size_t ngroups;
	size_t nevents_max;	/* upper bound on expanded events */
	size_t nargs_max;	/* upper bound on call arguments */
};

int block_index_build(struct block_index *ix, const struct fdr_log *log,
		      struct fdr_reader_error *err);
void block_index_free(struct block_index *ix);

/*
 * Without the DenseMap (it gave up): each block's group by (pid, tid) in
 * first-seen order, group_order = 0, 1, ...; O(n log n).  -1 on ENOMEM.
 */
int thread_groups_first_seen(struct block_index *ix);

/* ---- LLVM DenseMap<pair<u64,i32>> iteration order (dense_map_order.c) ----- */

struct group_key { uint64_t pid; int32_t tid; };
struct dense_map;
struct dense_map *dense_map_new(void);
void dense_map_free(struct dense_map *m);
/*
 * Group id (first-seen order) of key, inserting it if new; -1 on ENOMEM.
 * Once the map has given up (keys crafted to collide), 0 for every key.
 */
int64_t dense_map_insert(struct dense_map *m, struct group_key key);
/* Probing went over budget: the ids are meaningless, regroup the blocks. */
bool dense_map_gave_up(const struct dense_map *m);
/* Fill order[] with group ids in bucket order; returns how many. */
size_t dense_map_iteration_order(const struct dense_map *m, uint32_t *order);

/* ---- libstdc++ std::sort of one thread's blocks (block_sort.c) ----------- */

void block_sort_by_walltime(struct block **v, size_t n);

/* ---- expansion (trace_expander.c) ----------------------------------------- */

/* Streaming: the callback, and what stopped it. */
struct expand_stream {
	fdr_event_fn fn;
	void *ctx;
	int stop;		/* the callback's non-zero return */
	size_t args_cap;	/* of t->args */
};

struct expander {
	struct fdr_trace *t;
	struct expand_stream *stream;	/* NULL: building the whole trace */
	size_t nevents_max, nargs_max;	/* building: what the index counted */
	unsigned version;
	uint64_t base_tsc;
	uint16_t cpu;
	int32_t pid, tid;
	bool ignoring;		/* after EndOfBuffer until NewBuffer */
	bool building;		/* the last event may still take arguments */
	uint64_t read_since;	/* streaming: log_pages_read's count */
	int32_t func_id;	/* sticky fields of LLVM's current record */
	uint16_t record_type;
};

void expander_reset(struct expander *x);
/* Streaming: hand the event held to the callback, and empty the trace. */
void stream_flush(struct expander *x);
void expand_record(struct expander *x, const struct fdr_record *rec);
/* Blocks grouped by thread (file order inside a group), groups in map
 * order; start[g] is group g's first (ngroups + 1 entries). */
struct block **blocks_by_group(const struct block_index *ix, size_t *start);

/* ---- stable sort by TSC (tsc_sort.c) -------------------------------------- */

int tsc_sort(const struct fdr_event *events, size_t n, uint32_t *order);

/* ---- the scheduling file (sched_file.c, sched_index.c) -------------------- */

/* Time classes of struct fdr_sched_split, in its field order. */
enum { SCHED_ON_CPU, SCHED_RUNNABLE, SCHED_BLOCKED, SCHED_UNKNOWN, SCHED_NCLASSES };

struct fdr_sched {
	struct fdr_sched_file header;
	struct fdr_sched_record *records;	/* known types, by (tid, tsc, file order) */
	uint8_t *state_after;			/* per record */
	uint64_t (*ticks_before)[SCHED_NCLASSES];	/* from the thread's first record */
	size_t count;
	uint64_t skipped;
	struct fdr_sched_thread *threads;	/* by tid */
	size_t nthreads;
};

/* Sort s->records (count of them) by thread and fill in the rest; -1 ENOMEM. */
int sched_index_build(struct fdr_sched *s);

#endif
