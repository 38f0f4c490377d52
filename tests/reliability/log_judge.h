/* SPDX-License-Identifier: MIT */
/*
 * log_judge.h - everything the suite asks of one log fdrd wrote: our
 * reader (`fdrlog verify`), LLVM's (`llvm-xray-19 fdr-dump --verify`),
 * the independent scan (log_scan.h) and, for stress logs, the pattern and
 * the writers' tally (log_check.h).  Verdicts accumulate in judge_stats.
 */
#ifndef REL_LOG_JUDGE_H
#define REL_LOG_JUDGE_H

#include <stdbool.h>
#include <stdint.h>
#include "tally.h"
#include "tools.h"

struct judge_stats {
	unsigned long logs;
	unsigned long fdrlog_runs, fdrlog_fail;
	unsigned long xray_runs, xray_fail;
	unsigned long tool_errors;	/* a verifier could not run (in the
					 * *_fail counts too, never "malformed") */
	unsigned long malformed;	/* our scan refused it */
	unsigned long pattern_fail;	/* a record out of the writers' pattern */
	unsigned long tally_fail;	/* a confirmed pair missing */
	unsigned long unchecked_tally;	/* logs of rings that lost data */
	unsigned long ring_unknown;	/* side table without ring counters */
	uint64_t records;		/* every record scanned */
	uint64_t records_checked;	/* matched to the pattern */
	uint64_t pairs, confirmed_ranges, confirmed_pairs;
	unsigned diag_left;		/* "# " lines still allowed */
};

struct judge_job {
	const struct tools *tools;
	const char *log;
	const char *errfile;		/* tool stderr goes here */
	const struct tally *tally;	/* NULL: no pattern/tally check */
	uint64_t tally_from;		/* first entry worth scanning */
	uint32_t generation;
};

/* true if the log passed everything asked of it. */
bool judge_log(const struct judge_job *job, struct judge_stats *s);
/* "fdrlog verify, llvm-xray fdr-dump --verify, our scan": what
 * judge_log_format() runs with these tools. */
const char *judge_describe(const struct tools *t);
/* Only the tools and the scan: for logs with no known pattern. */
bool judge_log_format(const struct tools *t, const char *log,
		      const char *errfile, struct judge_stats *s);

#endif
