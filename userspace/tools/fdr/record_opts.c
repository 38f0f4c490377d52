// SPDX-License-Identifier: MIT
/* record_opts.c - `fdr record`'s command line. */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "record.h"
#include "sizes.h"

static const char help[] =
	"usage: fdr record [-o DIR] [--threshold DUR] [--buffer-size N]\n"
	"                  [--buffers-per-cpu N] [-F FUNC]... [-N FUNC]... [-v]\n"
	"                  [-P PATTERN]... [-A FUNC@SPEC]... [-R FUNC@retval]... [-a]\n"
	"                  [--no-libcall | -l] [--no-sched] [--trigger DUR[:FUNC]]\n"
	"                  [--] PROG [ARGS...]\n"
	"       fdr record -p PID [--duration DUR] [options as above]\n"
	"Run PROG (built with fdr-cc or fdr-c++) and record its function calls\n"
	"and its calls into shared libraries (any dynamically linked PROG),\n"
	"and those of its threads, forked children and exec'ed instrumented\n"
	"programs, into DIR (default ./" FDR_DEFAULT_DATA_DIR "/; replaced as a whole,\n"
	"never left half-written).  Records through /dev/fdr when it is there\n"
	"and free, else through a private shared-memory region.  Waits for PROG\n"
	"and every descendant, then writes the log; exits with PROG's status\n"
	"(128+N for a signal N; 125-127 for fdr's own errors).\n"
	"With -p, record the running process PID (built with fdr-cc, XRay or --gcc)\n"
	"from now until Ctrl-C, --duration, the trigger or its exit, then detach\n"
	"and leave it as it was; exits with 0.\n"
	"  -p, --pid PID           record the running process PID (who may ptrace it)\n"
	"      --duration DUR      with -p: stop after DUR (Nms, Ns; default: Ctrl-C)\n"
	"  -o, --output DIR        the data directory (default " FDR_DEFAULT_DATA_DIR ")\n"
	"  -t, --threshold DUR     drop calls shorter than DUR (N, Nus, Nms, Ns;\n"
	"                          default 5us; 0 keeps every call)\n"
	"  -b, --buffer-size N     bytes per buffer (K/M suffixes; default 64K)\n"
	"  -n, --buffers-per-cpu N buffers per CPU (default 64): the ring keeps the\n"
	"                          newest buffer-size * N bytes of each CPU; with\n"
	"                          --stream in a private region, 512 (used as needed)\n"
	"  -F, --filter FUNC       record only FUNC (repeatable; XRay builds: only\n"
	"                          FUNC's sleds are patched)\n"
	"  -N, --notrace FUNC      record all but FUNC (repeatable)\n"
	"  -P, --patch PATTERN     PROG not built with fdr-cc: patch the entries of\n"
	"                          its functions matching PATTERN (a name or a\n"
	"                          regex; '.' all; repeatable) and record them;\n"
	"                          PATTERN@LIB: those of the shared library LIB\n"
	"  -A, --argument FUNC@SPEC record FUNC's arguments (XRay builds; uftrace's\n"
	"                          spec: arg1,arg2/s,fparg1,arg3/i32,arg4/x...;\n"
	"                          repeatable; see fdr(1))\n"
	"  -R, --retval FUNC@retval[/FMT] record FUNC's return value\n"
	"  -a, --auto-args         record every function's arguments and return\n"
	"                          value, typed from PROG's DWARF (-g builds)\n"
	"      --stream            streaming mode: keep every record, not the last\n"
"                          ring's worth; full buffers go to DIR/log.xray\n"
"                          while PROG runs, and a writer that finds none\n"
"                          free drops and counts rather than wait\n"
"      --no-libcall        do not record calls into shared libraries (on by\n"
"                          default; the only calls of a program not built\n"
"                          with fdr-cc, which is then refused unless -P)\n"
"  -l, --nest-libcall      also record the calls between shared libraries\n"
"                          (not those of libc, the loader and the system\n"
"                          libraries fdr runs on), in libraries dlopen'ed\n"
"                          later too\n"
"      --no-sched          /dev/fdr: no context switches and wakeups\n"
	"                          (no DIR/log.xray.sched; a private embedded\n"
	"                          region never records them)\n"
	"      --trigger DUR[:FUNC] stop recording at the end of the first call\n"
	"                          (of FUNC: a name, XRay builds only, or #id as\n"
	"                          fdr report prints it) lasting DUR or more\n"
	"                          (Nus, Nms, Ns): the log holds that call and\n"
	"                          what came before it; PROG runs on untraced\n"
	"  -v, --verbose           say what the flush did\n"
	"Then: fdr report [DIR].\n";

static int usage_error(const char *what, const char *arg)
{
	fprintf(stderr, "fdr record: %s '%s'\n%s", what, arg ? arg : "", help);
	return 2;
}

/* DUR[:FUNC] */
static int parse_trigger(const char *arg, struct record_opts *o)
{
	const char *colon = strchr(arg, ':');
	char dur[32];
	uint64_t us;
	size_t len = colon ? (size_t)(colon - arg) : strlen(arg);

	if (len >= sizeof(dur) || (colon && !colon[1]))
		return usage_error("--trigger: expected DUR or DUR:FUNC, got", arg);
	memcpy(dur, arg, len);
	dur[len] = 0;
	if (fdr__parse_duration_us(dur, &us) || !us || us > 3600ull * 1000000)
		return usage_error("--trigger: expected a duration from 1us to 1h "
				   "(Nus, Nms, Ns) before ':', got", arg);
	o->trigger_ns = us * 1000;
	o->trigger_func = colon ? colon + 1 : NULL;
	return -1;
}

static int parse_one(int c, struct record_opts *o)
{
	uint64_t v;
	char *end;

	switch (c) {
	case 'h': fputs(help, stdout); return 0;
	case 'o': o->out_dir = optarg; return -1;
	case 'v': o->verbose = true; return -1;
	case 'S': o->no_sched = true; return -1;
	case 'M': o->stream = true; return -1;
	case 'L': o->no_libcall = true; return -1;
	case 'l': o->nest_libcall = true; return -1;
	case 'g': return parse_trigger(optarg, o);
	case 'T':
		/* uftrace's -T at record time needs the XRay mode to act on
		 * entry; not there yet, and silence would mislead */
		return usage_error("-T (uftrace's trigger) acts at replay/report time only, not "
				   "at record time yet: give it to fdr replay or fdr report "
				   "(--trigger DUR[:FUNC] stops a recording); got", optarg);
	case 'p':
		v = strtoull(optarg, &end, 10);
		if (end == optarg || *end || !v || v > INT32_MAX)
			return usage_error("--pid: expected a process id, got", optarg);
		o->pid = (pid_t)v;
		return -1;
	case 'D':
		if (fdr__parse_duration_us(optarg, &v) || !v)
			return usage_error("--duration: expected a duration (Nms, Ns), got",
					   optarg);
		o->duration_us = v;
		return -1;
	case 'P':
		if (o->npatch == 64)
			return usage_error("at most 64 patterns for", "-P");
		o->patch[o->npatch++] = optarg;
		return -1;
	case 'a': o->auto_args = true; return -1;
	case 'A':
	case 'R':
		if (o->nargspec == 64)
			return usage_error("at most 64 specs for", c == 'A' ? "-A" : "-R");
		o->argopt[o->nargspec] = (char)c;
		o->argspec[o->nargspec++] = optarg;
		return -1;
	case 'F':
	case 'N':
		if ((c == 'F' ? o->nonly : o->nhide) == 64)
			return usage_error("at most 64 functions for", c == 'F' ? "-F" : "-N");
		if (c == 'F')
			o->only[o->nonly++] = optarg;
		else
			o->hide[o->nhide++] = optarg;
		return -1;
	case 't':
		if (fdr__parse_duration_us(optarg, &v) || v > 1000000000)
			return usage_error("--threshold: expected N, Nus, Nms or Ns, got", optarg);
		o->threshold_us = (long)v;
		return -1;
	case 'b':
		if (fdr__parse_size(optarg, &v) || !v)
			return usage_error("--buffer-size: expected a size like 64K, got", optarg);
		o->buffer_size = v;
		return -1;
	case 'n':
		if (fdr__parse_size(optarg, &v) || !v || v > UINT32_MAX)
			return usage_error("--buffers-per-cpu: expected a count, got", optarg);
		o->buffers_per_cpu = (uint32_t)v;
		return -1;
	default:
		fputs(help, stderr);
		return 2;
	}
}

int fdr__record_parse(int argc, char **argv, struct record_opts *o)
{
	static const struct option opts[] = {
		{ "help", no_argument, 0, 'h' }, { "output", required_argument, 0, 'o' },
		{ "threshold", required_argument, 0, 't' },
		{ "buffer-size", required_argument, 0, 'b' },
		{ "buffers-per-cpu", required_argument, 0, 'n' },
		{ "verbose", no_argument, 0, 'v' }, { "filter", required_argument, 0, 'F' },
		{ "notrace", required_argument, 0, 'N' },
		{ "patch", required_argument, 0, 'P' },
		{ "argument", required_argument, 0, 'A' },
		{ "retval", required_argument, 0, 'R' },
		{ "auto-args", no_argument, 0, 'a' },
		{ "no-sched", no_argument, 0, 'S' },
		{ "no-libcall", no_argument, 0, 'L' },
		{ "nest-libcall", no_argument, 0, 'l' },
		{ "stream", no_argument, 0, 'M' },
		{ "trigger", required_argument, 0, 'g' },
		{ "pid", required_argument, 0, 'p' },
		{ "duration", required_argument, 0, 'D' }, { 0 }
	};
	int c, r;

	*o = (struct record_opts){ .out_dir = FDR_DEFAULT_DATA_DIR, .threshold_us = -1,
				   .buffer_size = 64 * 1024 };	/* -n: backend.c */
	optind = 0;
	/* '+': PROG's own options are PROG's, even without "--" */
	while ((c = getopt_long(argc, argv, "+ho:t:b:n:vF:N:P:T:p:A:R:al", opts, NULL)) != -1)
		if ((r = parse_one(c, o)) >= 0)
			return r;
	if (o->nest_libcall && o->no_libcall) {
		fprintf(stderr, "fdr record: --nest-libcall records calls between "
			"libraries, --no-libcall none: give one of them\n");
		return 2;
	}
	if (o->nest_libcall && o->nonly) {
		fprintf(stderr, "fdr record: --nest-libcall: -F records only the functions "
			"it names, no library calls: give one of them\n");
		return 2;
	}
	if (o->nest_libcall && o->pid) {
		fprintf(stderr, "fdr record: --nest-libcall: -p PID hooks no library "
			"calls (an attach leaves the GOTs alone): drop the option\n");
		return 2;
	}
	if (o->pid && optind < argc) {
		fprintf(stderr, "fdr record: -p PID records a running process: no PROG "
			"('%s')\n", argv[optind]);
		return 2;
	}
	if (o->duration_us && !o->pid) {
		fprintf(stderr, "fdr record: --duration is for -p PID; PROG is recorded "
			"until it exits\n");
		return 2;
	}
	if (o->pid)
		return -1;
	if (optind >= argc) {
		fprintf(stderr, "fdr record: expected PROG\n%s", help);
		return 2;
	}
	o->argv = argv + optind;
	return -1;
}
