/* SPDX-License-Identifier: MIT */
/*
 * ctl_retry.h - libfdr control calls, repeated when a signal interrupted
 * them.  A SIGTERM arriving during FLUSH_DONE must not leave the region
 * FLUSHING, nor turn a status query into a fatal error (the embedded
 * backend takes a flock(), which a signal can interrupt).
 */
#ifndef FDRD_CTL_RETRY_H
#define FDRD_CTL_RETRY_H

#include <errno.h>

#define CTL_RETRY(call)                          \
	({                                       \
		int ctl_ret_;                    \
		do                               \
			ctl_ret_ = (call);       \
		while (ctl_ret_ == -EINTR);      \
		ctl_ret_;                        \
	})

#endif /* FDRD_CTL_RETRY_H */
