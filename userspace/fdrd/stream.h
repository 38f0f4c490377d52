/* SPDX-License-Identifier: MIT */
/*
 * stream.h - the stream flush: a region in streaming mode (FDR_CTL_STREAM)
 * is written while it records.  FLUSH_BEGIN while INITIALIZED; every full
 * buffer writers give back (RELEASED) is appended to one growing log, in
 * acquisition order per thread, and handed back FREE; at the finalize,
 * after the grace period, the rest is appended as a flight-recorder flush
 * would write it, the side files follow and the log gets its name;
 * FLUSH_DONE.
 */
#ifndef FDRD_STREAM_H
#define FDRD_STREAM_H

#include <stdbool.h>

#include "flush.h"

struct stream_hooks {
	/*
	 * Called between two looks at the region: false ends the stream
	 * before the finalize (fdrd is stopping).  The log written so far
	 * gets its name, and the stream flush is aborted: the region goes
	 * on recording, for the next flusher to stream into a new log.
	 */
	bool (*keep_going)(void *ctx);
	/* Called once the stream flush is ours and set up (ok), or is not. */
	void (*begun)(void *ctx, bool ok);
	void *ctx;
};

/* seen: the STATUS that found the stream region waiting for a flusher. */
enum flush_outcome stream_region(struct flusher *f, const struct fdr_status *seen,
				 const struct stream_hooks *hooks);

#endif /* FDRD_STREAM_H */
