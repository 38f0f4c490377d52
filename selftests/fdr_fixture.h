/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fdr_fixture.h - the fixture most /dev/fdr selftests share: an open
 * device in state UNINITIALIZED, put back there afterwards.  Include
 * after kselftest_harness.h.
 */
#ifndef FDR_FIXTURE_H
#define FDR_FIXTURE_H

#include <string.h>
#include <unistd.h>
#include "fdr_test_lib.h"

FIXTURE(dev) {
	int fd;		/* or -errno of the failed open */
};

FIXTURE_SETUP(dev)
{
	self->fd = fdrt_open();
	if (self->fd >= 0)
		ASSERT_EQ(0, fdrt_to_uninitialized(self->fd));
}

FIXTURE_TEARDOWN(dev)
{
	if (self->fd >= 0) {
		fdrt_to_uninitialized(self->fd);
		close(self->fd);
	}
}

/* First statement of every test using the fixture. */
#define REQUIRE_DEV() do {						\
	if (self->fd < 0)						\
		SKIP(return, "%s: %s (is fdr.ko loaded?)", FDRT_DEV,	\
		     strerror(-self->fd));				\
} while (0)

#endif /* FDR_FIXTURE_H */
