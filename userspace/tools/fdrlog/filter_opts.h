/* SPDX-License-Identifier: MIT */
/*
 * filter_opts.h - the one parser of the filter options that every reading
 * command takes (fdrlog replay|flame|convert, fdr replay|report|flame|
 * convert), spelled as uftrace spells them:
 *   -F/--filter FUNC, -N/--notrace FUNC, -C/--caller-filter FUNC,
 *   -T/--trigger 'FUNC@depth=N,trace_on,trace_off,finish,time=DUR',
 *   -D/--depth N, -t/--time-filter DUR, -r/--time-range START~END,
 *   --tid TID[,TID...], --match regex|glob.
 * A command adds FILTER_SHORTOPTS to its getopt string and
 * FILTER_LONG_OPTIONS to its table, and hands every option to
 * filter_opts_option() first.  view_filter.c decides what is shown.
 */
#ifndef FDRLOG_FILTER_OPTS_H
#define FDRLOG_FILTER_OPTS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define FILTER_SHORTOPTS "F:N:C:T:D:t:r:"

/* The options' help lines, for every command's usage text. */
#define FILTER_HELP \
	"Filters (as uftrace's; fdr(1) FILTERS):\n" \
	"  -F, --filter FUNC        only FUNC's calls and what they call\n" \
	"  -N, --notrace FUNC       not FUNC's calls nor what they call\n" \
	"  -C, --caller-filter FUNC only FUNC's calls (as leaves) and their callers\n" \
	"  -T, --trigger FUNC@ACT   ACT: depth=N, trace_on, trace_off, finish, time=DUR\n" \
	"  -D, --depth N            at most N levels (from the -F function)\n" \
	"  -t, --time-filter DUR    hide calls shorter than DUR (5us; ns without unit)\n" \
	"  -r, --time-range START~END  the calls within (40us~1ms elapsed, or SEC.NSEC)\n" \
	"      --tid TID[,TID...]   only these threads\n" \
	"      --match regex|glob   FUNC patterns (default regex, as uftrace)\n" \
	"  FUNC: a name as printed, a regex (-F '^std::'), the full symbol or #id;\n" \
	"  one that names no function of the log is an error (exit status 2)\n"

/* Long-only options' getopt codes, above any character. */
enum {
	FILTER_OPT_TID = 0x200,
	FILTER_OPT_MATCH,
};

#define FILTER_LONG_OPTIONS \
	{ "filter", required_argument, 0, 'F' }, { "notrace", required_argument, 0, 'N' }, \
	{ "caller-filter", required_argument, 0, 'C' }, { "trigger", required_argument, 0, 'T' }, \
	{ "depth", required_argument, 0, 'D' }, { "time-filter", required_argument, 0, 't' }, \
	{ "time-range", required_argument, 0, 'r' }, \
	{ "tid", required_argument, 0, FILTER_OPT_TID }, \
	{ "match", required_argument, 0, FILTER_OPT_MATCH }

/* What a -T trigger does when its function is entered. */
enum filter_action {
	TRIG_DEPTH	= 1 << 0,	/* depth=N: at most N levels from here */
	TRIG_TRACE_ON	= 1 << 1,
	TRIG_TRACE_OFF	= 1 << 2,
	TRIG_FINISH	= 1 << 3,	/* nothing after this call returns */
	TRIG_TIME	= 1 << 4,	/* time=DUR: -t DUR from here down */
};

/* One -F, -N, -C or -T, in command-line order (a later one wins). */
struct filter_rule {
	char kind;			/* 'F', 'N', 'C', 'T' */
	char *pattern;			/* the FUNC part (a -T's before '@') */
	unsigned actions;		/* -T: enum filter_action */
	unsigned depth;			/* -T depth=N */
	uint64_t time_ns;		/* -T time=DUR */
	void *re;			/* compiled regex_t, or NULL: exact or glob */
};

struct filter_opts {
	struct filter_rule *rules;
	size_t nrules;
	bool glob;			/* --match glob (default: regex) */
	unsigned max_depth;		/* -D: 0 = no limit */
	uint64_t min_ns;		/* -t: 0 = all */
	uint32_t *tids;			/* --tid */
	size_t ntids;
	bool range;			/* -r given */
	bool range_elapsed[2];		/* start, end: from the first record */
	uint64_t range_ns[2];		/* UINT64_MAX end: open */
};

/*
 * Take option c (getopt's return) with arg: 0 taken, 1 not a filter
 * option, 2 usage error (message on stderr, "WHO: ...").
 */
int filter_opts_option(struct filter_opts *f, int c, const char *arg, const char *who);

/* Compile the patterns (after all options: --match may come last);
 * 0, or 2 with a message. */
int filter_opts_finish(struct filter_opts *f, const char *who);

/* Does anything narrow the view (anything but nothing given)? */
bool filter_opts_active(const struct filter_opts *f);

/* Does --tid (or its absence) take thread tid? */
bool filter_opts_wants_tid(const struct filter_opts *f, uint32_t tid);

void filter_opts_free(struct filter_opts *f);

/* "5us", "1.5ms", "200" (ns), units ns us ms s m as uftrace; 0 or -1. */
int filter_parse_duration(const char *s, uint64_t *ns);

#endif
