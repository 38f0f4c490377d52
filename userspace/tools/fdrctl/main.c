// SPDX-License-Identifier: MIT
/*
 * fdrctl - drive the fdr recorder's state machine: /dev/fdr or an
 * embedded shared-memory region.  See fdrctl(8).
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "fdrctl.h"

static const char usage[] =
	"usage: fdrctl [--target T | --embedded NAME] [--session NAME] COMMAND [ARGS]\n"
	"\n"
	"Control the fdr flight data recorder.\n"
	"\n"
	"commands:\n"
	"  init [--buffer-size N] [--buffers-per-cpu N] [--no-crash-finalize]\n"
	"       [--no-sched] [--trigger-duration DUR[:FUNC]] [--trigger-holdoff DUR]\n"
	"       [--mode stream|flight]\n"
	"                   allocate the buffers and start recording (flight\n"
	"                   recorder, or streaming while recording)\n"
	"  trigger          finalize now, reason TRIGGER (by hand)\n"
	"  finalize         stop recording; fdrd then writes the log\n"
	"  status [--json]  state, mode, geometry and counters\n"
	"  reset            drop the recorded data (after finalize)\n"
	"  wait STATE [--timeout MS]  wait until the recorder is in STATE\n"
	"  flush-abort      force the abort of a hung flush (FLUSHING)\n"
	"  destroy          remove an embedded region's shared-memory object\n"
	"  list [--json]    the device's named sessions you may attach to\n"
	"  revoke           end every writer of your --session (owner only)\n"
	"\n"
	"targets: /dev/fdr (default, or $FDR_TARGET), a device path, or\n"
	"embedded:NAME (/dev/shm/fdr-NAME); --embedded NAME is short for\n"
	"--target embedded:NAME.  --session NAME addresses the device's named\n"
	"session NAME (the target DEVICE:NAME) instead of its default session;\n"
	"NAME@OWNER (a uid or user name) is OWNER's session NAME, else yours.\n"
	"'fdrctl COMMAND --help' describes a command.\n"
	"\n"
	"exit status: 0 ok, 1 refused (wrong state, bad size, no memory),\n"
	"2 usage error, 3 target unavailable (module not loaded, no region,\n"
	"permission denied, ABI mismatch).\n";

struct command {
	const char *name;
	int (*run)(struct fdrctl_opts *o, int argc, char **argv);
};

static const struct command commands[] = {
	{ "init", cmd_init },	  { "finalize", cmd_finalize },
	{ "status", cmd_status }, { "reset", cmd_reset },
	{ "wait", cmd_wait },	  { "destroy", cmd_destroy },
	{ "flush-abort", cmd_flush_abort }, { "trigger", cmd_trigger },
	{ "list", cmd_list },	  { "revoke", cmd_revoke },
};

int fdrctl_set_embedded(struct fdrctl_opts *o, const char *name)
{
	int n = snprintf(o->target_buf, sizeof(o->target_buf), "%s%s",
			 FDR_EMBEDDED_PREFIX, name);

	if (n < 0 || (size_t)n >= sizeof(o->target_buf)) {
		fprintf(stderr, "fdrctl: embedded region name too long\n");
		return EXIT_USAGE;
	}
	o->target = o->target_buf;
	return 0;
}

/*
 * --session NAME: the named session of the target's device (of
 * $FDR_TARGET's, or /dev/fdr), as the target DEVICE:NAME.
 */
static int set_session(struct fdrctl_opts *o, const char *name)
{
	const char *dev = o->target ? o->target : getenv("FDR_TARGET");
	char base[sizeof(o->target_buf)];
	int n;

	if (!dev || !*dev)
		dev = FDR_DEFAULT_DEVICE;
	if (!*name || strpbrk(name, "/:")) {
		fprintf(stderr, "fdrctl: --session: invalid session name '%s' (1 to 63 letters, digits, '.', '-' or '_')\n",
			name);
		return EXIT_USAGE;
	}
	if (!strncmp(dev, FDR_EMBEDDED_PREFIX, strlen(FDR_EMBEDDED_PREFIX))) {
		fprintf(stderr, "fdrctl: --session: %s is an embedded region, which has no sessions\n",
			dev);
		return EXIT_USAGE;
	}
	snprintf(base, sizeof(base), "%s", dev);
	n = snprintf(o->target_buf, sizeof(o->target_buf), "%s:%s", base, name);
	if (n < 0 || (size_t)n >= sizeof(o->target_buf)) {
		fprintf(stderr, "fdrctl: --session: name too long\n");
		return EXIT_USAGE;
	}
	o->target = o->target_buf;
	return 0;
}

int fdrctl_wants_help(int argc, char **argv)
{
	for (int i = 1; i < argc; i++)
		if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h"))
			return 1;
	return 0;
}

int fdrctl_open(const struct fdrctl_opts *o, struct fdr_ctl **ctl)
{
	int ret = fdr_ctl_open(ctl, o->target);

	if (ret < 0) {
		fdrctl_fail(*ctl, "open", ret);
		fdr_ctl_close(*ctl);
		*ctl = NULL;
		return EXIT_UNAVAILABLE;
	}
	return 0;
}

/* Print the cause and map it to the documented exit code. */
int fdrctl_fail(struct fdr_ctl *ctl, const char *op, int err)
{
	fprintf(stderr, "fdrctl: %s\n", fdr_ctl_strerror(ctl, op, err));
	switch (-err) {
	case ENOENT: case ENODEV: case ENXIO: case EACCES: case EPERM:
	case ENOTTY: case EPROTO: case EBADMSG:
		return EXIT_UNAVAILABLE;
	default:
		return EXIT_REFUSED;
	}
}

int main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "target", required_argument, NULL, 't' },
		{ "embedded", required_argument, NULL, 'e' },
		{ "session", required_argument, NULL, 's' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct fdrctl_opts o = { 0 };
	const char *session = NULL;
	int c;

	/* '+': stop at the command; its options are its own. */
	while ((c = getopt_long(argc, argv, "+t:e:s:h", longopts, NULL)) != -1) {
		switch (c) {
		case 't':
			o.target = optarg;
			break;
		case 'e':
			if (fdrctl_set_embedded(&o, optarg))
				return EXIT_USAGE;
			break;
		case 's':
			session = optarg;
			break;
		case 'h':
			fputs(usage, stdout);
			return EXIT_OK;
		default:
			fputs(usage, stderr);
			return EXIT_USAGE;
		}
	}
	if (optind >= argc) {
		fprintf(stderr, "fdrctl: no command given\n%s", usage);
		return EXIT_USAGE;
	}
	if (session && set_session(&o, session))
		return EXIT_USAGE;
	for (size_t i = 0; i < sizeof(commands) / sizeof(commands[0]); i++) {
		if (!strcmp(argv[optind], commands[i].name)) {
			argv += optind;
			argc -= optind;
			optind = 0;	/* reinitialize getopt for the command's argv */
			return commands[i].run(&o, argc, argv);
		}
	}
	fprintf(stderr, "fdrctl: unknown command '%s'\n%s", argv[optind], usage);
	return EXIT_USAGE;
}
