// SPDX-License-Identifier: MIT
/* commands.c - the state transitions: init, finalize, reset, flush-abort;
 * and destroy. */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "fdrctl.h"

static const char init_usage[] =
	"usage: fdrctl [--target T] init [--buffer-size N] [--buffers-per-cpu N]\n"
	"                                [--no-crash-finalize] [--no-sched]\n"
	"                                [--embedded NAME]\n"
	"\n"
	"Allocate buffers_per_cpu buffers of buffer_size bytes for every CPU and\n"
	"start recording (UNINITIALIZED -> INITIALIZED).  N takes K, M, G\n"
	"suffixes (powers of 1024); the buffer size must be a multiple of the\n"
	"page size.  Defaults: the module's (see 'fdrctl status'), or 64K x 8\n"
	"for an embedded region.  --embedded NAME creates or re-initializes the\n"
	"shared-memory region /dev/shm/fdr-NAME instead of using /dev/fdr.\n"
	"--no-crash-finalize: a writer dying from a signal does not finalize.\n"
	"--no-sched: fdr.ko records no context switches and wakeups of the\n"
	"traced threads (no <log>.sched file; the embedded backend never has one).\n";

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

static int parse_init_args(struct fdrctl_opts *o, int argc, char **argv,
			   uint64_t *size, uint64_t *count, uint32_t *flags)
{
	static const struct option longopts[] = {
		{ "buffer-size", required_argument, NULL, 's' },
		{ "buffers-per-cpu", required_argument, NULL, 'n' },
		{ "no-crash-finalize", no_argument, NULL, 'c' },
		{ "no-sched", no_argument, NULL, 'S' },
		{ "embedded", required_argument, NULL, 'e' },
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
		case 'e':
			if (fdrctl_set_embedded(o, optarg))
				return EXIT_USAGE;
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
	return 0;
}

int cmd_init(struct fdrctl_opts *o, int argc, char **argv)
{
	struct fdr_init cfg = { .size = sizeof(cfg) };
	uint64_t size = 0, count = 0;
	struct fdr_ctl *ctl;
	int ret = parse_init_args(o, argc, argv, &size, &count, &cfg.flags);

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
