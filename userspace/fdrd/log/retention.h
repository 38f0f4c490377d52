/* SPDX-License-Identifier: MIT */
/*
 * retention.h - --max-logs and --max-bytes: what fdrd keeps of its own
 * logs in the output directory.
 *
 * A log of fdrd's is a regular file of fdrd's user whose name matches
 * the --pattern (log_name_matches) and whose .threads side table is one
 * fdrd wrote for it (a regular file of that user that starts with
 * "fdrd-threads\t1\nlog\t<its name>\n").  Anything else in the directory,
 * a foreign file that happens to match the pattern included, is neither
 * counted nor ever deleted.  A log's bytes are its own and its side
 * files' (.threads, .sched), st_size.
 *
 * After each log is in place, the oldest logs (modification time, then
 * name) go, each with its side files (the log first, so no reader finds
 * a log without its table), until at most max_logs logs and max_bytes
 * bytes remain; the log just written is never deleted, even when it
 * alone is larger than max_bytes.
 */
#ifndef FDRD_RETENTION_H
#define FDRD_RETENTION_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "out_dir.h"

struct retention_limits {
	uint64_t max_logs;	/* 0: no limit */
	uint64_t max_bytes;	/* 0: no limit */
};

static inline bool retention_limited(const struct retention_limits *r)
{
	return r->max_logs || r->max_bytes;
}

/*
 * Before writing: a log (or a stream's file) of bytes would alone go past
 * max_bytes.  Returns false when it fits; true with why (the sizes and
 * the limit) when it must not be written at all.
 */
bool retention_too_big(const struct retention_limits *r, uint64_t bytes,
		       char *why, size_t len);

/* One line for fdrd's log per deletion, warning or failure. */
typedef void (*retention_say)(void *arg, bool error, const char *text);

/*
 * After keep (the log just renamed into place, in d) is complete: delete
 * the oldest logs of pattern in d as above, one say() per log deleted.
 * Returns the number of logs deleted, or a negative errno (the directory
 * could not be listed; nothing deleted, said).
 */
int retention_apply(const struct out_dir *d, const char *pattern,
		    const struct retention_limits *r, const char *keep,
		    retention_say say, void *arg);

/*
 * "--max-bytes" values: digits, then optionally K, M, G or T (powers of
 * 1024, either case, an optional trailing "B" or "iB").  0 on success,
 * else -1 with why.
 */
int retention_parse_size(const char *s, uint64_t *out, const char **why);

#endif /* FDRD_RETENTION_H */
