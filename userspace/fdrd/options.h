/* SPDX-License-Identifier: MIT */
/* options.h - fdrd's command line. */
#ifndef FDRD_OPTIONS_H
#define FDRD_OPTIONS_H

#include <limits.h>
#include <stdbool.h>

#include "config_file.h"
#include "retention.h"
#include "uring_writer.h"

struct fdrd_options {
	const char *target;		/* NULL: $FDR_TARGET or /dev/fdr */
	const char *session;		/* --session NAME, NULL: the default one */
	unsigned int session_gid;	/* --session-group GID, 0: none */
	char output_dir[PATH_MAX];	/* absolute */
	const char *pattern;
	unsigned int grace_ms;
	unsigned int retry_ms;		/* first retry delay after a failed flush */
	unsigned int stream_interval_ms; /* longest wait between two looks at a stream */
	bool auto_reset, once, foreground, use_syslog;
	bool wait_device;		/* a missing device is waited for */
	bool allow_insecure_dir;	/* others may write, no sticky bit: accept */
	struct uring_write_opts write;
	struct retention_limits retain;	/* --max-logs, --max-bytes */
	int attach_pid;			/* --attach-pid PID, 0: none */
	const char *attach_unit;	/* --attach-unit UNIT, NULL: none */
	const char *config;		/* --config FILE, NULL: none */
	struct config_args config_args;	/* its words (target, pattern may
					 * point into them) */
};

enum options_result { OPTIONS_RUN, OPTIONS_EXIT_OK, OPTIONS_EXIT_USAGE };

/*
 * Parse argv, then the options file of --config, whose options come after
 * the command line's (its values win; a flag set on either is set).
 * Errors are printed on stderr with what was wrong.  OPTIONS_RUN: free
 * with options_free.
 */
enum options_result options_parse(int argc, char **argv, struct fdrd_options *o);
void options_free(struct fdrd_options *o);

#endif /* FDRD_OPTIONS_H */
