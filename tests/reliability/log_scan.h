/* SPDX-License-Identifier: MIT */
/*
 * log_scan.h - an independent reader of the v2 logs fdrd writes.
 *
 * Deliberately not libfdrread: the reliability suite judges the other
 * parts, so it brings its own parser of the format (Documentation/format.md)
 * and cross-checks with `fdrlog verify` and `llvm-xray fdr-dump --verify`.
 * It keeps only what the checks need: per buffer, the writer's tid and its
 * function records (EnterArg with its CallArgument folded in).
 */
#ifndef REL_LOG_SCAN_H
#define REL_LOG_SCAN_H

#include <stddef.h>
#include <stdint.h>

struct scan_event {
	uint64_t arg;		/* EnterArg: its CallArgument */
	uint64_t offset;	/* file offset of the record */
	uint32_t fid;
	uint8_t kind;		/* FDR_FN_* */
	uint8_t has_arg;
};

struct scan_buffer {
	uint64_t offset;	/* file offset of its BufferExtents */
	uint64_t extents;
	size_t first, count;	/* its events in scan_log.ev */
	int32_t tid;
};

struct scan_log {
	uint64_t tsc_hz, buffer_size;
	uint64_t records;		/* every record, metadata included */
	struct scan_event *ev;
	size_t nr_ev, cap_ev;
	struct scan_buffer *buf;
	size_t nr_buf, cap_buf;
	char error[256];		/* the first malformation, "" if none */
};

/* 0: well formed; -1: malformed (error says where); -errno: I/O. */
int scan_log_file(const char *path, struct scan_log *log);
int scan_log_bytes(const uint8_t *p, size_t n, struct scan_log *log);
void scan_log_free(struct scan_log *log);

#endif
