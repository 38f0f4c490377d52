/* SPDX-License-Identifier: MIT */
/*
 * flush_common.h - the pieces both flushes use (flush.c for a finalized
 * region, stream.c for a stream): see flush_common.c.
 */
#ifndef FDRD_FLUSH_COMMON_H
#define FDRD_FLUSH_COMMON_H

#include <stdbool.h>
#include <stddef.h>

#include <fdr.h>

#include "flush.h"
#include "log_layout.h"
#include "out_dir.h"
#include "sched_file.h"

/* A log's name and its side files' */
struct names {
	char log[256];
	char threads[256 + 8];
	char sched[256 + 8];
};

/*
 * A log name (and its .threads and .sched) not in use yet in d, for the
 * facts of l (generation, finalize reason); 0 or a negative errno.
 */
int flush_choose_names(struct flusher *f, const struct out_dir *d,
		       const struct log_layout *l, struct names *n);
/* Warn about every buffer validation cut or dropped. */
void flush_report_problems(const struct log_layout *l);
/* "log NAME: finalized by trigger: ...", for a trigger finalize only. */
void flush_say_trigger(const struct log_layout *l, const char *log);
/* retention_apply()'s messages, into fdrd's log. */
void flush_say_retention(void *arg, bool error, const char *text);
/*
 * The device's STATUS of the region mapped (len bytes) while we hold
 * FLUSHING: FINALIZED, or with stream also INITIALIZED (and a stream
 * region).  0, or a negative errno, said.
 */
int flush_device_status(struct flusher *f, size_t len, bool stream,
			struct fdr_status *st);
/*
 * The .sched bytes of the region, when st (the device's STATUS, NULL on
 * the embedded backend) says it has a scheduling area; *sf empty if not.
 */
void flush_take_sched(struct flusher *f, const struct fdr_status *st,
		      struct sched_file *sf);

#endif /* FDRD_FLUSH_COMMON_H */
