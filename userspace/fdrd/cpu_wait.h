/* SPDX-License-Identifier: MIT */
/*
 * cpu_wait.h - how long the calling thread has waited for a CPU: the
 * run-queue wait the kernel keeps per task (/proc/thread-self/schedstat,
 * its second field, ns).  The stream flush reports it: a stream that
 * drops records while its flusher waited for a CPU lost them to other
 * work on the machine, not to the hand-over (bench/stream/README.md).
 */
#ifndef FDRD_CPU_WAIT_H
#define FDRD_CPU_WAIT_H

#include <stdbool.h>
#include <stdint.h>

/* The wait so far in *ns; false when the kernel does not say. */
bool cpu_wait_ns(uint64_t *ns);

#endif /* FDRD_CPU_WAIT_H */
