// SPDX-License-Identifier: MIT
/* options.c - parse and check fdrd's options before anything starts. */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <fdr.h>

#include "log_name.h"
#include "log_writer.h"
#include "options.h"
#include "out_dir.h"
#include "session.h"

static const char usage[] =
"Usage: fdrd [OPTION]...\n"
"Wait for the flight data recorder region to be finalized, write its\n"
"buffers as an LLVM XRay FDR v2 log (plus a .threads side table), report\n"
"the flush, and wait for the next cycle.\n"
"\n"
"  -t, --target=TARGET     /dev/fdr (default: $FDR_TARGET, else /dev/fdr),\n"
"                          another device path, or embedded:NAME\n"
"  -s, --session=NAME      flush the device's named session NAME: made by\n"
"                          fdrd (owned by its user, alive while fdrd runs)\n"
"                          or, if it exists, attached to; writers record\n"
"                          into it with FDR_TARGET=/dev/fdr:NAME\n"
"      --session-group=GID  a session fdrd makes admits the members of group\n"
"                          GID as writers (default: only fdrd's user)\n"
"  -o, --output-dir=DIR    where logs go (default: the current directory);\n"
"                          refused if every user may write to it and it is\n"
"                          not sticky\n"
"      --allow-insecure-dir  accept such a directory anyway (other users can\n"
"                          then remove or replace the logs)\n"
"  -p, --pattern=PATTERN   log file name (default " LOG_NAME_DEFAULT_PATTERN ");\n"
"                          placeholders <timestamp> <seq> <generation> <reason> <pid>\n"
"  -g, --grace-ms=MS       wait after finalize for writers to finish (default 100)\n"
"      --retry-ms=MS       first retry delay after a failed flush, doubling up\n"
"                          to 60 s (default 1000)\n"
"      --stream-interval=MS  a region in streaming mode (fdrctl init --mode\n"
"                          stream) is written while it records: fdrd looks\n"
"                          for full buffers every 1 ms while they keep\n"
"                          coming, backing off to MS when none do (default 2;\n"
"                          less for a ring a writer fills faster)\n"
"      --fsync             make each log durable (fsync file and directory)\n"
"      --auto-reset        after each log, reset and re-initialize the region\n"
"                          with the same geometry and latency trigger for\n"
"                          the next cycle\n"
"      --max-logs=N        keep at most N of fdrd's logs in the output directory:\n"
"                          after each log, the oldest go with their side files\n"
"                          (said in the log; other files are never touched)\n"
"      --max-bytes=SIZE    keep at most SIZE bytes of them (K, M, G, T: powers\n"
"                          of 1024); the newest log is always kept, and a log\n"
"                          that alone would be larger is not written (error)\n"
"      --once              exit after one log (status 1 if the flush failed)\n"
"      --attach-pid=PID    (also --attach=PID) make the running program PID,\n"
"                          built by fdr-cc, record into this region (as fdr\n"
"                          record -p does), until fdrd stops or it exits; with\n"
"                          --auto-reset and a latency trigger (fdrctl init\n"
"                          --trigger-duration) a log is left at every slow call\n"
"      --attach-unit=UNIT  the same for the main PID of systemd unit UNIT\n"
"                          (systemctl show -p MainPID), attached again when\n"
"                          it restarts\n"
"      --wait-device       when the device is missing (fdr.ko not loaded),\n"
"                          say so and wait for it instead of exiting\n"
"  -c, --config=FILE       more options from FILE, as on this command line\n"
"                          ('#' comments); read again on SIGHUP\n"
"  -f, --foreground        do not daemonize (messages go to stderr)\n"
"      --syslog            send messages to syslog (default when daemonized)\n"
"      --io=MODE           writev (io_uring), fixed (registered buffers),\n"
"                          direct (O_DIRECT via bounce buffers) or bounce\n"
"                          (buffered, via bounce buffers), or pwritev (plain\n"
"                          calls from fdrd's thread); direct and fixed\n"
"                          fall back to writev where the kernel refuses\n"
"                          (default: pwritev when the grace period validated\n"
"                          every buffer, else writev)\n"
"      --queue-depth=N     writes in flight (default 4)\n"
"      --chunk-kib=N       bytes per write request, in KiB (default 256)\n"
"      --preallocate       reserve the log's size (fallocate) before writing\n"
"                          it (not the default: its cost depends on the\n"
"                          kernel; a full disk fails before any write\n"
"                          either way, by a free-space check)\n"
"      --register-file     register the log's fd with io_uring (fixed file)\n"
"  -h, --help              show this help\n"
"\n"
"SIGTERM or SIGINT: a flush in progress is finished, then fdrd exits 0;\n"
"a stream's log so far is named and the region records on.  An attached\n"
"program is detached first (left as it was) and what it recorded flushed.\n"
"SIGUSR1: fire a trigger by hand on the region (as fdrctl trigger): it is\n"
"finalized, and flushed as for any finalize.\n"
"SIGHUP: read the command line and the --config file again and use them\n"
"from the next flush on (all but --target and --session; bad options keep\n"
"the old ones; --attach-pid and --attach-unit need a restart too).\n";

enum { OPT_RETRY = 256, OPT_FSYNC, OPT_AUTO_RESET, OPT_ONCE, OPT_SYSLOG,
       OPT_IO, OPT_DEPTH, OPT_CHUNK, OPT_PREALLOC, OPT_NO_PREALLOC,
       OPT_REGFILE, OPT_WAIT_DEV, OPT_INSECURE, OPT_MAX_LOGS, OPT_MAX_BYTES,
       OPT_STREAM_INTERVAL, OPT_SESSION_GROUP, OPT_ATTACH_PID, OPT_ATTACH_UNIT };

/* What the options file may not hold. */
#define NOT_IN_FILE(c)	((c) == 'c' || (c) == 'h')

static const struct option longopts[] = {
	{ "target", required_argument, NULL, 't' },
	{ "session", required_argument, NULL, 's' },
	{ "session-group", required_argument, NULL, OPT_SESSION_GROUP },
	{ "output-dir", required_argument, NULL, 'o' },
	{ "allow-insecure-dir", no_argument, NULL, OPT_INSECURE },
	{ "pattern", required_argument, NULL, 'p' },
	{ "grace-ms", required_argument, NULL, 'g' },
	{ "retry-ms", required_argument, NULL, OPT_RETRY },
	{ "stream-interval", required_argument, NULL, OPT_STREAM_INTERVAL },
	{ "fsync", no_argument, NULL, OPT_FSYNC },
	{ "auto-reset", no_argument, NULL, OPT_AUTO_RESET },
	{ "once", no_argument, NULL, OPT_ONCE },
	{ "max-logs", required_argument, NULL, OPT_MAX_LOGS },
	{ "max-bytes", required_argument, NULL, OPT_MAX_BYTES },
	{ "attach-pid", required_argument, NULL, OPT_ATTACH_PID },
	{ "attach", required_argument, NULL, OPT_ATTACH_PID },
	{ "attach-unit", required_argument, NULL, OPT_ATTACH_UNIT },
	{ "wait-device", no_argument, NULL, OPT_WAIT_DEV },
	{ "foreground", no_argument, NULL, 'f' },
	{ "syslog", no_argument, NULL, OPT_SYSLOG },
	{ "io", required_argument, NULL, OPT_IO },
	{ "queue-depth", required_argument, NULL, OPT_DEPTH },
	{ "chunk-kib", required_argument, NULL, OPT_CHUNK },
	{ "preallocate", no_argument, NULL, OPT_PREALLOC },
	{ "no-preallocate", no_argument, NULL, OPT_NO_PREALLOC },	/* the default */
	{ "register-file", no_argument, NULL, OPT_REGFILE },
	{ "config", required_argument, NULL, 'c' },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};

static int parse_uint(const char *opt, const char *s, unsigned long max,
		      unsigned int *out)
{
	char *end;
	unsigned long v;

	errno = 0;
	v = strtoul(s, &end, 10);
	if (errno || end == s || *end || v > max || *s == '-') {
		fprintf(stderr, "fdrd: --%s: '%s' is not a number from 0 to %lu\n",
			opt, s, max);
		return -1;
	}
	*out = (unsigned int)v;
	return 0;
}

static int parse_max_logs(const char *s, struct retention_limits *r)
{
	unsigned int v;

	if (parse_uint("max-logs", s, 1000000, &v))
		return -1;
	if (!v) {
		fprintf(stderr, "fdrd: --max-logs: 0: the newest log is always kept; "
			"give 1 or more (no option: no limit)\n");
		return -1;
	}
	r->max_logs = v;
	return 0;
}

static int parse_max_bytes(const char *s, struct retention_limits *r)
{
	const char *why;

	if (retention_parse_size(s, &r->max_bytes, &why)) {
		fprintf(stderr, "fdrd: --max-bytes: '%s': %s\n", s, why);
		return -1;
	}
	return 0;
}

static int parse_io(const char *s, struct uring_write_opts *w)
{
	w->sync_if_prechecked = false;	/* the mode asked for is the mode used */
	if (!strcmp(s, "writev"))
		w->mode = URING_WRITE_VECTORED;
	else if (!strcmp(s, "fixed"))
		w->mode = URING_WRITE_FIXED;
	else if (!strcmp(s, "direct"))
		w->mode = URING_WRITE_DIRECT;
	else if (!strcmp(s, "bounce"))
		w->mode = URING_WRITE_BOUNCE;
	else if (!strcmp(s, "pwritev"))
		w->mode = URING_WRITE_SYNC;
	else {
		fprintf(stderr, "fdrd: --io: '%s' is none of writev, fixed, direct, bounce, pwritev\n", s);
		return -1;
	}
	return 0;
}

/*
 * The output directory must exist now and be safe to write to; it is
 * kept as an absolute path without symlinks (realpath), and every flush
 * opens it again without following one (out_dir.c).
 */
static int check_output_dir(const char *dir, struct fdrd_options *o)
{
	struct out_dir d;
	char err[PATH_MAX + 512];

	if (!realpath(dir, o->output_dir)) {
		fprintf(stderr, "fdrd: output directory %s: %s\n", dir, strerror(errno));
		return -1;
	}
	if (out_dir_open(&d, o->output_dir, o->allow_insecure_dir, err, sizeof(err))) {
		fprintf(stderr, "fdrd: %s\n", err);
		return -1;
	}
	out_dir_close(&d);
	return 0;
}

static int parse_one(int c, struct fdrd_options *o, const char **dir)
{
	unsigned int v;

	switch (c) {
	case 't': o->target = optarg; return 0;
	case 's': o->session = optarg; return 0;
	case OPT_SESSION_GROUP:
		return parse_uint("session-group", optarg, 4294967294ul,
				  &o->session_gid);
	case 'o': *dir = optarg; return 0;
	case 'p': o->pattern = optarg; return 0;
	case 'g': return parse_uint("grace-ms", optarg, 600000, &o->grace_ms);
	case OPT_RETRY: return parse_uint("retry-ms", optarg, 600000, &o->retry_ms);
	case OPT_STREAM_INTERVAL:
		if (parse_uint("stream-interval", optarg, 1000, &v))
			return -1;
		if (!v) {
			fprintf(stderr, "fdrd: --stream-interval: 0: at least 1 ms\n");
			return -1;
		}
		o->stream_interval_ms = v;
		return 0;
	case OPT_FSYNC: o->write.fsync = true; return 0;
	case OPT_AUTO_RESET: o->auto_reset = true; return 0;
	case OPT_ONCE: o->once = true; return 0;
	case OPT_MAX_LOGS: return parse_max_logs(optarg, &o->retain);
	case OPT_MAX_BYTES: return parse_max_bytes(optarg, &o->retain);
	case OPT_ATTACH_PID:
		if (parse_uint("attach-pid", optarg, 4194304, &v))
			return -1;
		if (!v) {
			fprintf(stderr, "fdrd: --attach-pid: 0: a process ID, 1 or more\n");
			return -1;
		}
		o->attach_pid = (int)v;
		return 0;
	case OPT_ATTACH_UNIT: o->attach_unit = optarg; return 0;
	case OPT_WAIT_DEV: o->wait_device = true; return 0;
	case 'f': o->foreground = true; return 0;
	case OPT_SYSLOG: o->use_syslog = true; return 0;
	case OPT_IO: return parse_io(optarg, &o->write);
	case OPT_DEPTH:
		if (parse_uint("queue-depth", optarg, 1024, &v) || !v)
			return -1;
		o->write.queue_depth = v;
		return 0;
	case OPT_CHUNK:
		if (parse_uint("chunk-kib", optarg, 1u << 20, &v) || !v)
			return -1;
		o->write.chunk_bytes = (size_t)v << 10;
		return 0;
	case OPT_PREALLOC: o->write.preallocate = true; return 0;
	case OPT_NO_PREALLOC: o->write.preallocate = false; return 0;
	case OPT_REGFILE: o->write.register_file = true; return 0;
	case OPT_INSECURE: o->allow_insecure_dir = true; return 0;
	case 'c': o->config = optarg; return 0;
	}
	return -1;
}

/* One getopt pass over argv (from = where the words come from). */
static enum options_result parse_args(int argc, char **argv, const char *from,
				      struct fdrd_options *o, const char **dir)
{
	int c;

	optind = 0;	/* glibc: start over, also after an earlier pass */
	while ((c = getopt_long(argc, argv, "t:s:o:p:g:c:fh", longopts, NULL)) != -1) {
		if (from && NOT_IN_FILE(c)) {
			fprintf(stderr, "fdrd: %s: --%s is for the command line only\n", from,
				c == 'c' ? "config" : "help");
			return OPTIONS_EXIT_USAGE;
		}
		if (c == 'h') {
			fputs(usage, stdout);
			return OPTIONS_EXIT_OK;
		}
		if (c == '?' || parse_one(c, o, dir)) {
			if (from)
				fprintf(stderr, "fdrd: in the options file %s\n", from);
			fprintf(stderr, "Try 'fdrd --help'.\n");
			return OPTIONS_EXIT_USAGE;
		}
	}
	if (optind < argc) {
		fprintf(stderr, "fdrd: %s%sunexpected argument '%s'\nTry 'fdrd --help'.\n",
			from ? from : "", from ? ": " : "", argv[optind]);
		return OPTIONS_EXIT_USAGE;
	}
	return OPTIONS_RUN;
}

static enum options_result parse_config(struct fdrd_options *o, const char **dir)
{
	char err[PATH_MAX + 128];

	if (config_file_read(o->config, &o->config_args, err, sizeof(err))) {
		fprintf(stderr, "fdrd: %s\n", err);
		return OPTIONS_EXIT_USAGE;
	}
	return parse_args(o->config_args.argc, o->config_args.argv, o->config, o, dir);
}

/* --session needs a device; --session-group needs --session. */
static int check_session(const struct fdrd_options *o)
{
	const char *t = fdrd_session_device(o);

	if (o->session_gid && !o->session) {
		fprintf(stderr, "fdrd: --session-group: only with --session NAME\n");
		return -1;
	}
	if (o->session && !strncmp(t, FDR_EMBEDDED_PREFIX,
				   strlen(FDR_EMBEDDED_PREFIX))) {
		fprintf(stderr, "fdrd: --session: %s is an embedded region, which has no sessions\n",
			t);
		return -1;
	}
	return 0;
}

enum options_result options_parse(int argc, char **argv, struct fdrd_options *o)
{
	const char *dir = ".", *bad;
	enum options_result r;

	memset(o, 0, sizeof(*o));
	o->pattern = LOG_NAME_DEFAULT_PATTERN;
	o->grace_ms = 100;
	o->retry_ms = 1000;
	o->stream_interval_ms = 2;
	log_write_defaults(&o->write);
	r = parse_args(argc, argv, NULL, o, &dir);
	if (r == OPTIONS_RUN && o->config)
		r = parse_config(o, &dir);
	if (r != OPTIONS_RUN)
		goto out;
	r = OPTIONS_EXIT_USAGE;
	if (check_session(o))
		goto out;
	if (o->attach_pid && o->attach_unit) {
		fprintf(stderr, "fdrd: --attach-pid and --attach-unit: one program to attach "
			"to, not both (run an fdrd for each)\n");
		goto out;
	}
	bad = log_name_check_pattern(o->pattern);
	if (bad) {
		fprintf(stderr, "fdrd: --pattern '%s': %s\n", o->pattern, bad);
		goto out;
	}
	if (check_output_dir(dir, o))
		goto out;
	if (!o->foreground)
		o->use_syslog = true;
	return OPTIONS_RUN;
out:
	options_free(o);
	return r;
}

void options_free(struct fdrd_options *o)
{
	config_file_free(&o->config_args);
}
