// SPDX-License-Identifier: MIT
/*
 * cpu_wait.c - the calling thread's run-queue wait (cpu_wait.h).
 */
#include <stdio.h>

#include "cpu_wait.h"

bool cpu_wait_ns(uint64_t *ns)
{
	unsigned long long run, wait;
	FILE *f = fopen("/proc/thread-self/schedstat", "re");
	bool ok;

	if (!f)
		return false;
	ok = fscanf(f, "%llu %llu", &run, &wait) == 2;
	fclose(f);
	if (ok)
		*ns = wait;
	return ok;
}
