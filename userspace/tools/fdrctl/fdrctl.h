/* SPDX-License-Identifier: MIT */
/* fdrctl.h - what the files of fdrctl share. */
#ifndef FDRCTL_H
#define FDRCTL_H

#include <stdint.h>
#include <fdr.h>

/* Exit codes, documented in fdrctl(8). */
enum fdrctl_exit {
	EXIT_OK = 0,
	EXIT_REFUSED = 1,	/* wrong state, bad config, out of memory */
	EXIT_USAGE = 2,		/* bad command line */
	EXIT_UNAVAILABLE = 3,	/* no device/region, permission, wrong ABI */
};

struct fdrctl_opts {
	const char *target;	/* NULL: $FDR_TARGET or /dev/fdr */
	char target_buf[256];
};

int fdrctl_parse_size(const char *s, uint64_t *out);
/* 0, -EINVAL (not a duration), -EDOM (no unit), -ERANGE (too large) */
int fdrctl_parse_duration(const char *s, uint64_t *ns);
int fdrctl_open(const struct fdrctl_opts *o, struct fdr_ctl **ctl);
int fdrctl_fail(struct fdr_ctl *ctl, const char *op, int err);

int cmd_init(struct fdrctl_opts *o, int argc, char **argv);
int cmd_finalize(struct fdrctl_opts *o, int argc, char **argv);
int cmd_reset(struct fdrctl_opts *o, int argc, char **argv);
int cmd_status(struct fdrctl_opts *o, int argc, char **argv);
int cmd_wait(struct fdrctl_opts *o, int argc, char **argv);
int cmd_flush_abort(struct fdrctl_opts *o, int argc, char **argv);
int cmd_trigger(struct fdrctl_opts *o, int argc, char **argv);
int cmd_destroy(struct fdrctl_opts *o, int argc, char **argv);
int cmd_revoke(struct fdrctl_opts *o, int argc, char **argv);
int cmd_list(struct fdrctl_opts *o, int argc, char **argv);

/* "--help" or "-h" as the only argument of a command. */
int fdrctl_wants_help(int argc, char **argv);
int fdrctl_set_embedded(struct fdrctl_opts *o, const char *name);

#endif
