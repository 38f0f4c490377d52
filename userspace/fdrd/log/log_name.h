/* SPDX-License-Identifier: MIT */
/*
 * log_name.h - a log's file name from the --pattern.  Placeholders:
 *   <timestamp>   UTC time of the flush, 20261130T051700Z
 *   <seq>         fdrd's count of logs written since it started, from 0
 *   <generation>  the region's generation (bumped by every INIT)
 *   <reason>      why the region was finalized: ioctl, crash, trigger,
 *                 none (unknown for a reason this fdrd does not know)
 *   <pid>         fdrd's process id
 * Anything else is copied as is.
 */
#ifndef FDRD_LOG_NAME_H
#define FDRD_LOG_NAME_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <time.h>

#define LOG_NAME_DEFAULT_PATTERN "fdr-log.<timestamp>.<seq>.xray"

struct log_name_vars {
	time_t when;
	uint64_t seq;
	uint32_t generation;
	uint32_t finalize_reason;
	int pid;
};

/* NULL if the pattern is usable as a file name, else why not. */
const char *log_name_check_pattern(const char *pattern);

/* Expand pattern into out; -ENAMETOOLONG if it does not fit. */
int log_name_expand(const char *pattern, const struct log_name_vars *v,
		    char *out, size_t outlen);

const char *log_name_reason(uint32_t finalize_reason);

/*
 * Whether name is one log_name_expand() could have made of pattern: a
 * placeholder matches what it expands to (<timestamp> 16 characters as
 * above, <seq> <generation> <pid> digits, <reason> a reason name), the
 * rest itself.  What --max-logs and --max-bytes count and delete.
 */
bool log_name_matches(const char *pattern, const char *name);

#endif /* FDRD_LOG_NAME_H */
