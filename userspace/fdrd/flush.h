/* SPDX-License-Identifier: MIT */
/*
 * flush.h - one flush of a finalized region: FLUSH_BEGIN, map, lay out,
 * write side table and log, FLUSH_DONE; FLUSH_ABORT and no files left on
 * any failure, so the buffers stay for the next attempt.
 */
#ifndef FDRD_FLUSH_H
#define FDRD_FLUSH_H

#include <limits.h>

#include <fdr.h>

#include "log_precheck.h"
#include "options.h"
#include "stream_sched.h"

enum flush_outcome {
	FLUSH_WRITTEN,		/* a log and its side table are in place */
	FLUSH_NOTHING,		/* no records: FLUSHED, no log */
	FLUSH_SKIPPED,		/* larger than --max-bytes: FLUSHED, no log */
	FLUSH_FAILED,		/* aborted; the region is still FINALIZED */
	FLUSH_NOT_OURS,		/* FLUSH_BEGIN refused: someone else flushes */
	FLUSH_STOPPED,		/* a stream cut short (fdrd stops): its log is
				 * named, the region records on (stream.h) */
};

struct flusher {
	struct fdr_ctl *ctl;
	const struct fdrd_options *opts;
	uint64_t logs_written;	/* the <seq> of the next log */
	char last_log[PATH_MAX + 300];	/* path of the last log written */
	struct log_precheck precheck;	/* walks done in the grace period */
	size_t reused;			/* of them, used by the last flush */
	/* fdr record: the region is mapped for this one flush, so its bytes
	 * are read from its descriptor where the backend allows (first
	 * touches of a fresh mapping are slow: uring_source.c) */
	bool read_fd;
	struct uring_source source;	/* set during a flush that does */
	/* the last stream: did its flusher get a CPU when it needed one? */
	struct stream_facts {
		bool wait_known;	/* cpu_wait_ns: the kernel said */
		uint64_t cpu_wait_ns;	/* run-queue wait of the stream's thread */
		uint64_t max_gap_ns;	/* longest time between two looks */
		uint64_t max_write_ns;	/* longest append (the write blocked?) */
		struct stream_sched sched;	/* what the scheduler granted it */
		int append_error;	/* -errno that ended it early, or 0 */
	} stream;
};

/*
 * During the grace period: map the finalized region and walk the buffers
 * already released, so the flush need not (log_precheck.h).  st is the
 * STATUS that saw the region finalized (the device's is trusted for the
 * geometry and generation).  Best effort: a failure only means the flush
 * walks everything itself.
 */
void flush_precheck(struct flusher *f, const struct fdr_status *st);
/*
 * FLUSH_BEGIN, write the log, FLUSH_DONE (FLUSH_ABORT on failure).  seen
 * is the STATUS that found the region finalized: on the device fdrd then
 * lays the log out from a fresh STATUS, on the embedded backend from the
 * control page (layout_facts.h).
 */
enum flush_outcome flush_region(struct flusher *f, const struct fdr_status *seen);

#endif /* FDRD_FLUSH_H */
