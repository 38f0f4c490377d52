// SPDX-License-Identifier: MIT
/*
 * session.c - fdrd --session NAME: the named session fdrd flushes, made
 * by fdrd (which then owns it and keeps it alive while it runs) or, if
 * it exists already, attached to (ours, or one whose group we are in).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "msg.h"
#include "session.h"

const char *fdrd_session_device(const struct fdrd_options *o)
{
	const char *dev = o->target ? o->target : getenv("FDR_TARGET");

	return dev && *dev ? dev : FDR_DEFAULT_DEVICE;
}

static int attach_existing(struct fdr_ctl **ctl, const struct fdrd_options *o)
{
	char target[FDRD_TARGET_MAX];
	int n = snprintf(target, sizeof(target), "%s:%s", fdrd_session_device(o),
			 o->session);
	int ret;

	if (n < 0 || (size_t)n >= sizeof(target))
		return -ENAMETOOLONG;
	ret = fdr_ctl_open(ctl, target);
	if (!ret)
		msg_info("session %s exists already: flushing it", o->session);
	return ret;
}

int fdrd_open_session(struct fdr_ctl **ctl, const struct fdrd_options *o,
		      const char **op)
{
	uint32_t flags = o->session_gid ? FDR_SESSION_GROUP : 0;
	int ret;

	*op = "open";
	ret = fdr_ctl_open(ctl, fdrd_session_device(o));
	if (ret)
		return ret;
	*op = "session create";
	ret = fdr_ctl_session_create(*ctl, o->session, flags, o->session_gid);
	if (ret != -EEXIST)
		return ret;
	fdr_ctl_close(*ctl);
	*op = "open";
	return attach_existing(ctl, o);
}
