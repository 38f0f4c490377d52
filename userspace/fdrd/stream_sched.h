/* SPDX-License-Identifier: MIT */
/*
 * stream_sched.h - the stream thread asks the scheduler to run it as
 * soon as buffers are ready (stream_sched.c).
 */
#ifndef FDRD_STREAM_SCHED_H
#define FDRD_STREAM_SCHED_H

#include <stdbool.h>
#include <stdint.h>

enum stream_prio {
	STREAM_PRIO_NORMAL,	/* the kernel granted nothing of the below */
	STREAM_PRIO_PROMPT,	/* SCHED_OTHER, short slice and/or nice -10 */
	STREAM_PRIO_RT,		/* SCHED_FIFO 1 */
};

struct stream_sched {
	enum stream_prio prio;
	bool demoted;		/* RT given up for now: a long busy stretch */
	bool given;		/* real-time already when it began: not ours */
	bool restored;		/* stream_sched_normal done: the thread's own again */
	bool last_found;	/* the last look took buffers: no sleep since */
	uint64_t window_start;	/* ns: the busy cap's window */
	uint64_t busy_ns;	/* busy in this window */
	uint64_t last_look;	/* ns */
	uint64_t demotions;	/* how often the busy cap struck */
	uint32_t was_policy, was_prio;	/* the thread's own, for the way back */
	int32_t was_nice;
	uint64_t was_slice, was_flags;
};

/* Best effort, for the calling thread only; got says what it has. */
void stream_sched_prompt(struct stream_sched *got, uint64_t now_ns);

/* After each look (found: it took buffers): keeps a real-time thread
 * from holding its CPU through long busy stretches (a budget per window). */
void stream_sched_look(struct stream_sched *s, bool found, uint64_t now_ns);

/* Real-time now (raised by stream_sched_prompt, not demoted, not yet
 * back to its own)?  Only then does the thread follow its writers' CPU:
 * at normal priority it would wait there behind them (stream_cpu.h). */
bool stream_sched_realtime(const struct stream_sched *s);

/* What it had, for a message: "SCHED_FIFO 1", ... */
const char *stream_sched_name(const struct stream_sched *s);

/* Back to the policy, priority and nice the thread began with; prio
 * keeps saying what the stream had, for its summary. */
void stream_sched_normal(struct stream_sched *s);

#endif /* FDRD_STREAM_SCHED_H */
