// SPDX-License-Identifier: MIT
/*
 * futex.c - wake and wait on the state word of an embedded region.  The
 * mapping is shared between processes, so these are not FUTEX_PRIVATE.
 */
#include <errno.h>
#include <limits.h>
#include <linux/futex.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>
#include "internal.h"

__FDR_NO_INSTRUMENT void fdr__futex_wake_all(uint32_t *word)
{
	syscall(SYS_futex, word, FUTEX_WAKE, INT_MAX, NULL, NULL, 0);
}

/* Sleep while *word == val, at most timeout_ms.  0, -ETIMEDOUT, -EINTR. */
__FDR_NO_INSTRUMENT int fdr__futex_wait(uint32_t *word, uint32_t val, int timeout_ms)
{
	struct timespec ts = { timeout_ms / 1000,
			       (long)(timeout_ms % 1000) * 1000000 };

	if (syscall(SYS_futex, word, FUTEX_WAIT, val, &ts, NULL, 0) == 0)
		return 0;
	if (errno == ETIMEDOUT)
		return -ETIMEDOUT;
	if (errno == EINTR)
		return -EINTR;
	return 0;	/* EAGAIN: the word already changed */
}
