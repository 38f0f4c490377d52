// SPDX-License-Identifier: MIT
/* log_judge.c - see log_judge.h. */
#include <stdarg.h>
#include <stdio.h>
#include <unistd.h>
#include "log_check.h"
#include "log_judge.h"
#include "log_scan.h"
#include "ring_facts.h"
#include "tap.h"

#define TOOL_TIMEOUT_S	120

static void diag(struct judge_stats *s, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void diag(struct judge_stats *s, const char *fmt, ...)
{
	char buf[1024];
	va_list ap;

	if (!s->diag_left)
		return;
	s->diag_left--;
	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	tap_diag("%s", buf);
}

static bool run_tool(const char *what, const char *log, char *const argv[],
		     const char *errfile,
		     unsigned long *runs, unsigned long *fails,
		     struct judge_stats *s)
{
	char first[256];
	int rc;

	if (!argv[0][0])
		return true;
	if (errfile)
		(void)!truncate(errfile, 0);
	rc = tools_run(argv, errfile, TOOL_TIMEOUT_S);
	(*runs)++;
	if (rc == 0)
		return true;
	(*fails)++;
	s->tool_errors += rc == 126 || rc == 127 || rc < 0;
	tools_first_line(errfile ? errfile : "/dev/null", first, sizeof(first));
	diag(s, "%s %s: status %d: %s", what, log, rc, first);
	return false;
}

const char *judge_describe(const struct tools *t)
{
	static char buf[128];

	snprintf(buf, sizeof(buf), "%s%sour scan",
		 t->fdrlog[0] ? "fdrlog verify, " : "",
		 t->xray[0] ? "llvm-xray fdr-dump --verify, " : "");
	return buf;
}

bool judge_log_format(const struct tools *t, const char *log,
		      const char *errfile, struct judge_stats *s)
{
	char *fdrlog[] = { (char *)t->fdrlog, "verify", (char *)log, NULL };
	char *xray[] = { (char *)t->xray, "fdr-dump", "--verify", (char *)log, NULL };
	struct scan_log scan;
	bool ok = true;
	int ret;

	s->logs++;
	ok &= run_tool("fdrlog verify", log, fdrlog, errfile, &s->fdrlog_runs,
		       &s->fdrlog_fail, s);
	ok &= run_tool("llvm-xray fdr-dump --verify", log, xray, errfile,
		       &s->xray_runs, &s->xray_fail, s);
	ret = scan_log_file(log, &scan);
	if (ret) {
		s->malformed++;
		diag(s, "scan %s: %s", log, ret == -1 ? scan.error : "cannot read");
		ok = false;
	}
	s->records += scan.records;
	scan_log_free(&scan);
	return ok;
}

/*
 * Which rules hold for this log: a ring that recycled buffers or dropped
 * records lost some of what was confirmed, by design; one that did
 * neither lost nothing.  Without fdrd's word on it the log fails: a
 * guess either way would make the checks wrong or toothless.
 */
static bool ring_of(const struct judge_job *job, struct judge_stats *s,
		    bool *lossy)
{
	struct ring_facts f;

	*lossy = true;
	if (!ring_facts_read(job->log, &f)) {
		s->ring_unknown++;
		diag(s, "%s.threads: no buffers_recycled/records_dropped lines (fdrd too old?)",
		     job->log);
		return false;
	}
	*lossy = ring_facts_lossy(&f);
	if (*lossy)
		diag(s, "%s: the ring recycled %llu buffers, dropped %llu records: a lost buffer is no failure, the tally is not checked",
		     job->log, (unsigned long long)f.buffers_recycled,
		     (unsigned long long)f.records_dropped);
	return true;
}

bool judge_log(const struct judge_job *job, struct judge_stats *s)
{
	struct check_result r = { 0 };
	struct scan_log scan;
	bool ok = judge_log_format(job->tools, job->log, job->errfile, s);
	bool lossy;

	if (!job->tally || scan_log_file(job->log, &scan) != 0)
		return ok;
	ok &= ring_of(job, s, &lossy);
	check_pattern(&scan, lossy, &r);
	if (r.failures) {
		s->pattern_fail++;
		diag(s, "%s: %llu pattern failures, first: %s", job->log,
		     (unsigned long long)r.failures, r.first_failure);
		ok = false;
	}
	if (!lossy) {
		r.failures = 0;
		check_tally(job->tally, job->tally_from, job->generation, &r);
		if (r.failures) {
			s->tally_fail++;
			diag(s, "%s: %llu confirmed ranges missing, first: %s",
			     job->log, (unsigned long long)r.failures,
			     r.first_failure);
			ok = false;
		}
	} else {
		s->unchecked_tally++;
	}
	s->records_checked += r.records_checked;
	s->pairs += r.pairs;
	s->confirmed_ranges += r.confirmed_ranges;
	s->confirmed_pairs += r.confirmed_pairs;
	check_result_free(&r);
	scan_log_free(&scan);
	return ok;
}
