// SPDX-License-Identifier: MIT
/* commands.c - the state transitions: init, finalize, reset, flush-abort;
 * and destroy. */
#include <errno.h>
#include <getopt.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "fdrctl.h"

static const char init_usage[] =
	"usage: fdrctl [--target T] init [--buffer-size N] [--buffers-per-cpu N]\n"
	"                                [--no-crash-finalize] [--no-sched]\n"
	"                                [--mode stream|flight] [--embedded NAME]\n"
	"                                [--trigger-duration DUR[:FUNC]]\n"
	"                                [--trigger-holdoff DUR]\n"
	"\n"
	"Allocate buffers_per_cpu buffers of buffer_size bytes for every CPU and\n"
	"start recording (UNINITIALIZED -> INITIALIZED).  N takes K, M, G\n"
	"suffixes (powers of 1024); the buffer size must be a multiple of the\n"
	"page size.  Defaults: the module's (see 'fdrctl status'), or 64K x 8\n"
	"for an embedded region.  --embedded NAME creates or re-initializes the\n"
	"shared-memory region /dev/shm/fdr-NAME instead of using /dev/fdr.\n"
	"--no-crash-finalize: a writer dying from a signal does not finalize.\n"
	"--no-sched: fdr.ko records no context switches and wakeups of the\n"
	"traced threads (no <log>.sched file; the embedded backend never has one).\n"
	"--mode flight (the default): the flight recorder; writers overwrite the\n"
	"oldest buffers and fdrd writes the log after the finalize.  --mode stream:\n"
	"streaming mode; a stream flusher writes full buffers while recording goes\n"
	"on, writers never overwrite one it has not written, and with no free\n"
	"buffer a record is dropped and counted (per CPU in 'fdrctl status'; the\n"
	"writer's next buffer starts with a drop marker saying how many).\n"
	"--trigger-duration DUR[:FUNC]: the latency trigger.  When a writer\n"
	"records the exit of a call that lasted at least DUR (of function id\n"
	"FUNC only, else of any function), the region is finalized, reason\n"
	"TRIGGER, so the log ends with that call.  DUR is a whole number with a\n"
	"unit: ns, us, ms or s (10ms, 500us, 2s).  FUNC is a numeric function id\n"
	"(12 or #12, as the reports print unknown ids); fdrctl does not resolve names\n"
	"('fdr record' does, for XRay builds).\n"
	"--trigger-holdoff DUR: the least time between two triggers, for the\n"
	"region, across threads, processes, resets and inits (default 1s with a\n"
	"trigger, else 0; 0: none; whole milliseconds, at most 1 hour).  A trigger\n"
	"by hand ('fdrctl trigger') is never held off, but starts a holdoff.\n";

static int bad_usage(const char *what, const char *arg, const char *usage)
{
	fprintf(stderr, "fdrctl: %s '%s'\n%s", what, arg ? arg : "", usage);
	return EXIT_USAGE;
}

/* The defaults: the module's parameters, or the embedded backend's. */
static void default_geometry(struct fdr_ctl *ctl, struct fdr_init *cfg)
{
	struct fdr_status st;

	cfg->buffer_size = 64 * 1024;
	cfg->buffers_per_cpu = 8;
	if (fdr_ctl_status(ctl, &st) == 0 && st.default_buffer_size &&
	    st.default_buffers_per_cpu) {
		cfg->buffer_size = st.default_buffer_size;
		cfg->buffers_per_cpu = st.default_buffers_per_cpu;
	}
}

/* What a bad DUR is, in words. */
static const char *duration_problem(int err)
{
	switch (err) {
	case -EDOM: return "give a unit: ns, us, ms or s, e.g. 10ms";
	case -ERANGE: return "too large";
	default: return "a whole number with a unit: ns, us, ms or s, e.g. 10ms";
	}
}

/* --trigger-duration DUR[:FUNC] */
static int parse_trigger(const char *arg, struct fdr_init *cfg)
{
	char dur[64], *colon, *end;
	const char *fn;
	uint64_t ns;
	long long fid = 0;
	int err;

	if (strlen(arg) >= sizeof(dur)) {
		fprintf(stderr, "fdrctl: bad --trigger-duration '%s': too long\n", arg);
		return EXIT_USAGE;
	}
	strcpy(dur, arg);
	colon = strchr(dur, ':');
	if (colon)
		*colon = 0;
	err = fdrctl_parse_duration(dur, &ns);
	if (err || ns == 0) {
		fprintf(stderr, "fdrctl: bad --trigger-duration '%s': %s\n%s", arg,
			err ? duration_problem(err) :
			      "the duration must be more than 0 (leave the option out for no trigger)",
			init_usage);
		return EXIT_USAGE;
	}
	if (colon) {
		fn = colon + 1;
		if (*fn == '#')
			fn++;
		errno = 0;
		fid = *fn >= '0' && *fn <= '9' ? strtoll(fn, &end, 10) : -1;
		if (fid <= 0 || errno || *end || fid > INT32_MAX) {
			if (*fn && (*fn < '0' || *fn > '9'))
				fprintf(stderr,
					"fdrctl: bad --trigger-duration '%s': FUNC '%s' is not a function id; fdrctl does not resolve names: give the numeric id (1 to %d, as fdrlog prints it), or let 'fdr record' resolve the name in an XRay build\n",
					arg, colon + 1, INT32_MAX);
			else
				fprintf(stderr,
					"fdrctl: bad --trigger-duration '%s': the function id must be 1 to %d (leave ':FUNC' out for any function)\n",
					arg, INT32_MAX);
			return EXIT_USAGE;
		}
	}
	cfg->trigger_ns = ns;
	cfg->trigger_fid = (int32_t)fid;
	return 0;
}

/* --mode stream|flight */
static int parse_mode(const char *arg, uint32_t *flags)
{
	if (!strcmp(arg, "stream")) {
		*flags |= FDR_INIT_STREAM;
		return 0;
	}
	if (!strcmp(arg, "flight")) {
		*flags &= ~FDR_INIT_STREAM;
		return 0;
	}
	fprintf(stderr, "fdrctl: bad --mode '%s': 'stream' or 'flight' (the default)\n%s",
		arg, init_usage);
	return EXIT_USAGE;
}

/* --trigger-holdoff DUR, in whole milliseconds */
static int parse_holdoff(const char *arg, struct fdr_init *cfg)
{
	uint64_t ns;
	int err = fdrctl_parse_duration(arg, &ns);

	if (err) {
		fprintf(stderr, "fdrctl: bad --trigger-holdoff '%s': %s (0: none)\n%s",
			arg, duration_problem(err), init_usage);
		return EXIT_USAGE;
	}
	if (ns % 1000000) {
		fprintf(stderr, "fdrctl: bad --trigger-holdoff '%s': the holdoff is counted in whole milliseconds\n",
			arg);
		return EXIT_USAGE;
	}
	if (ns / 1000000 > FDR_TRIGGER_HOLDOFF_MAX_MS) {
		fprintf(stderr, "fdrctl: bad --trigger-holdoff '%s': at most 1 hour (%u ms)\n",
			arg, FDR_TRIGGER_HOLDOFF_MAX_MS);
		return EXIT_USAGE;
	}
	cfg->trigger_holdoff_ms = (uint32_t)(ns / 1000000);
	return 0;
}

static int parse_init_args(struct fdrctl_opts *o, int argc, char **argv,
			   uint64_t *size, uint64_t *count, struct fdr_init *cfg)
{
	uint32_t *flags = &cfg->flags;
	bool holdoff_set = false;
	int ret;
	static const struct option longopts[] = {
		{ "buffer-size", required_argument, NULL, 's' },
		{ "buffers-per-cpu", required_argument, NULL, 'n' },
		{ "no-crash-finalize", no_argument, NULL, 'c' },
		{ "no-sched", no_argument, NULL, 'S' },
		{ "mode", required_argument, NULL, 'm' },
		{ "embedded", required_argument, NULL, 'e' },
		{ "trigger-duration", required_argument, NULL, 'T' },
		{ "trigger-holdoff", required_argument, NULL, 'H' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	int c;

	while ((c = getopt_long(argc, argv, "s:n:e:h", longopts, NULL)) != -1) {
		switch (c) {
		case 's':
			if (fdrctl_parse_size(optarg, size) || *size == 0)
				return bad_usage("bad --buffer-size", optarg,
						 init_usage);
			break;
		case 'n':
			if (fdrctl_parse_size(optarg, count) || *count == 0 ||
			    *count > UINT32_MAX)
				return bad_usage("bad --buffers-per-cpu", optarg,
						 init_usage);
			break;
		case 'c':
			*flags |= FDR_INIT_NO_CRASH_FINALIZE;
			break;
		case 'S':
			*flags |= FDR_INIT_NO_SCHED;
			break;
		case 'm':
			if ((ret = parse_mode(optarg, flags)))
				return ret;
			break;
		case 'e':
			if (fdrctl_set_embedded(o, optarg))
				return EXIT_USAGE;
			break;
		case 'T':
			if ((ret = parse_trigger(optarg, cfg)))
				return ret;
			break;
		case 'H':
			if ((ret = parse_holdoff(optarg, cfg)))
				return ret;
			holdoff_set = true;
			break;
		case 'h':
			fputs(init_usage, stdout);
			return -1;
		default:
			fputs(init_usage, stderr);
			return EXIT_USAGE;
		}
	}
	if (optind < argc)
		return bad_usage("unexpected argument", argv[optind], init_usage);
	if (cfg->trigger_ns && !holdoff_set)
		cfg->trigger_holdoff_ms = 1000;	/* a storm gives a few logs */
	return 0;
}

/*
 * The region was made without the scheduling view it asked for: no slot
 * was free (FDR_CTL_SCHED_REFUSED).  Initialized all the same; say so.
 */
static void say_sched_refused(struct fdr_ctl *ctl)
{
	struct fdr_status st = { .size = sizeof(st) };

	if (fdr_ctl_status(ctl, &st) == 0 && (st.flags & FDR_CTL_SCHED_REFUSED))
		fprintf(stderr, "fdrctl: warning: %s\n",
			fdr_ctl_strerror(ctl, "sched", -ENOSPC));
}

int cmd_init(struct fdrctl_opts *o, int argc, char **argv)
{
	struct fdr_init cfg = { .size = sizeof(cfg) };
	uint64_t size = 0, count = 0;
	struct fdr_ctl *ctl;
	int ret = parse_init_args(o, argc, argv, &size, &count, &cfg);

	if (ret)
		return ret < 0 ? EXIT_OK : ret;
	ret = fdrctl_open(o, &ctl);
	if (ret)
		return ret;
	default_geometry(ctl, &cfg);
	if (size)
		cfg.buffer_size = size;
	if (count)
		cfg.buffers_per_cpu = (uint32_t)count;
	ret = fdr_ctl_init(ctl, &cfg);
	if (ret < 0)
		ret = fdrctl_fail(ctl, "init", ret);
	else
		say_sched_refused(ctl);
	fdr_ctl_close(ctl);
	return ret;
}

/* A command with no arguments of its own that makes one transition. */
static int simple_transition(struct fdrctl_opts *o, int argc, char **argv,
			     const char *usage, const char *op,
			     int (*fn)(struct fdr_ctl *))
{
	struct fdr_ctl *ctl;
	int ret;

	if (fdrctl_wants_help(argc, argv)) {
		fputs(usage, stdout);
		return EXIT_OK;
	}
	if (argc > 1)
		return bad_usage("unexpected argument", argv[1], usage);
	ret = fdrctl_open(o, &ctl);
	if (ret)
		return ret;
	ret = fn(ctl);
	if (ret < 0)
		ret = fdrctl_fail(ctl, op, ret);
	fdr_ctl_close(ctl);
	return ret;
}

static int trigger_by_hand(struct fdr_ctl *ctl)
{
	return fdr_ctl_trigger(ctl, NULL);
}

int cmd_finalize(struct fdrctl_opts *o, int argc, char **argv)
{
	static const char usage[] =
		"usage: fdrctl [--target T] finalize\n\n"
		"Stop recording (INITIALIZED -> FINALIZED).  Writers stop at their\n"
		"next record; fdrd then writes the log.\n";

	return simple_transition(o, argc, argv, usage, "finalize",
				 fdr_ctl_finalize);
}

int cmd_reset(struct fdrctl_opts *o, int argc, char **argv)
{
	static const char usage[] =
		"usage: fdrctl [--target T] reset\n\n"
		"Drop the recorded data (FINALIZED and not FLUSHING ->\n"
		"UNINITIALIZED), so that a new init can start.\n";

	return simple_transition(o, argc, argv, usage, "reset", fdr_ctl_reset);
}

int cmd_flush_abort(struct fdrctl_opts *o, int argc, char **argv)
{
	static const char usage[] =
		"usage: fdrctl [--target T] flush-abort\n\n"
		"Give up a flush that will never finish (FLUSHING -> NOT_FLUSHING),\n"
		"e.g. when the fdrd that began it hangs: the data stays, so fdrd can\n"
		"flush again, or 'fdrctl reset' can drop it.  This is a forced abort:\n"
		"it ends the flush whoever began it, so on /dev/fdr it needs\n"
		"CAP_SYS_ADMIN.  (A flusher that dies needs none: closing its\n"
		"/dev/fdr file aborts its flush.)\n";
	int ret = simple_transition(o, argc, argv, usage, "flush-abort",
				    fdr_ctl_flush_force_abort);

	if (ret == EXIT_OK && !fdrctl_wants_help(argc, argv))
		puts("flush aborted (forced, whoever began it); the data stays FINALIZED");
	return ret;
}

int cmd_trigger(struct fdrctl_opts *o, int argc, char **argv)
{
	static const char usage[] =
		"usage: fdrctl [--target T] trigger\n\n"
		"Fire the latency trigger by hand: finalize now (INITIALIZED ->\n"
		"FINALIZED), reason TRIGGER, naming this process and thread (function\n"
		"id 0, duration 0).  Never held off by --trigger-holdoff, but starts a\n"
		"holdoff for the writers' triggers.  Works whether or not the region\n"
		"was initialized with --trigger-duration.\n";
	int ret = simple_transition(o, argc, argv, usage, "trigger",
				    trigger_by_hand);

	if (ret == EXIT_OK && !fdrctl_wants_help(argc, argv))
		puts("triggered: the recorder is FINALIZED (reason trigger)");
	return ret;
}

int cmd_revoke(struct fdrctl_opts *o, int argc, char **argv)
{
	static const char usage[] =
		"usage: fdrctl --session NAME revoke\n\n"
		"As the session's owner (or root): end every writer of your named\n"
		"session NAME and admit no more.  Their mappings stop being the\n"
		"session's memory (they read zeroes, so their recording stops) and\n"
		"keep none of it alive; their files get EPERM for everything.\n";
	int ret = simple_transition(o, argc, argv, usage, "revoke",
				    fdr_ctl_session_revoke);

	if (ret == EXIT_OK && !fdrctl_wants_help(argc, argv))
		puts("revoked: the session has no writers and admits none");
	return ret;
}

int cmd_destroy(struct fdrctl_opts *o, int argc, char **argv)
{
	static const char usage[] =
		"usage: fdrctl --embedded NAME destroy\n\n"
		"Remove the shared-memory object of an embedded region.  Processes\n"
		"that still map it keep their mapping.\n";
	struct fdr_ctl *ctl;
	int ret;

	if (fdrctl_wants_help(argc, argv)) {
		fputs(usage, stdout);
		return EXIT_OK;
	}
	if (argc > 1)
		return bad_usage("unexpected argument", argv[1], usage);
	if (!o->target || strncmp(o->target, FDR_EMBEDDED_PREFIX,
				  strlen(FDR_EMBEDDED_PREFIX)))
		return bad_usage("destroy needs an embedded target, not",
				 o->target ? o->target : FDR_DEFAULT_DEVICE,
				 usage);
	/* No control handle first: opening validates the object, and a
	 * corrupted region is exactly what must still be removable. */
	ret = fdr_ctl_destroy_embedded(o->target);
	if (ret == 0)
		return EXIT_OK;
	fdr_ctl_open(&ctl, o->target);	/* only to word the error */
	ret = fdrctl_fail(ctl, "destroy", ret);
	fdr_ctl_close(ctl);
	return ret;
}
