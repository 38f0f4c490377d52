/* SPDX-License-Identifier: MIT */
/*
 * stream_cpu.h - the stream's thread reads the buffers on the CPU that
 * wrote them.
 *
 * Why: a buffer read on another CPU than its writer's costs both sides.
 * The stream's reads (validation, the copy into the log) miss, the lines
 * being in the writer's cache; and when the buffer, handed back, is
 * written again, the writer must take every line back from the stream's
 * CPU.  On bench/app's Lua run kept whole (212 MB) that was ~0.1 s of
 * CPU on either side, and with the two on one CPU both were gone
 * (bench/app/README.md).  So each look that finds most of its bytes
 * written in one CPU's pool runs on that CPU; a look whose bytes come
 * from several, or a backlog (the writers outrun the stream: any CPU will
 * do), lets the thread run anywhere again.  Best effort: a CPU outside
 * the thread's allowed set, or a refusal, is left alone.
 */
#ifndef FDRD_STREAM_CPU_H
#define FDRD_STREAM_CPU_H

#include <sched.h>
#include <stdbool.h>
#include <stddef.h>

#include "log_layout.h"

struct stream_cpu {
	cpu_set_t allowed;	/* the thread's own set, restored at the end */
	bool known;		/* allowed was read */
	int on;			/* the CPU the thread is held to, or -1 */
	int want;		/* the last looks' choice (-1: any CPU), */
	unsigned int streak;	/* made by this many looks in a row */
	unsigned long moves;	/* times it was held to another CPU */
};

void stream_cpu_begin(struct stream_cpu *c);
/*
 * Before the look's reads: l holds the buffers it takes; ready of total
 * buffers in the region were waiting (a backlog frees the thread).
 */
void stream_cpu_follow(struct stream_cpu *c, const struct log_layout *l, size_t ready,
		       size_t total);
/* The thread's own set again. */
void stream_cpu_end(struct stream_cpu *c);

#endif /* FDRD_STREAM_CPU_H */
