/* SPDX-License-Identifier: MIT */
/* session.h - fdrd --session NAME: make or join the named session. */
#ifndef FDRD_SESSION_H
#define FDRD_SESSION_H

#include <fdr.h>
#include "options.h"

#define FDRD_TARGET_MAX	320

/* The device whose session it is: --target, $FDR_TARGET or /dev/fdr. */
const char *fdrd_session_device(const struct fdrd_options *o);
/* 0 or -errno; *op is the step that failed ("open", "session create"). */
int fdrd_open_session(struct fdr_ctl **ctl, const struct fdrd_options *o,
		      const char **op);

#endif /* FDRD_SESSION_H */
