// SPDX-License-Identifier: MIT
/*
 * stream_sched.c - the stream thread's place in the scheduler.
 *
 * A full-speed writer fills a ring of 1 MiB per CPU in ~3 ms
 * (bench/stream (d): 44 M events/s, 360 MB/s); the stream thread needs
 * only a fifth of a CPU to keep up, but it must get the CPU within those
 * few ms each time buffers are ready.  On a CPU other work shares, a
 * nice-0 thread waited up to 10-50 ms (bench/stream/README.md): that
 * wait, not the write, is where the records were dropped.  In the order
 * tried:
 *
 *  - SCHED_FIFO 1, where the process may (CAP_SYS_NICE, RLIMIT_RTPRIO):
 *    it preempts any normal thread the moment it wakes.  Its work is
 *    bounded by what writers hand it and it sleeps when nothing is ready;
 *    a writer faster than the disk would keep it busy, so more than
 *    BUSY_CAP_NS of busy looks in a window of WINDOW_NS drops it back
 *    to SCHED_OTHER until the next window (the rest of the CPU's work
 *    is never held off longer than that, nor for more than a quarter
 *    of the time).  The last pass, which takes every buffer, runs at
 *    the thread's own priority.  Reset on fork: nothing it
 *    starts inherits it.  A thread started real-time already (chrt) is
 *    left as it is, cap and all: that policy was someone's choice.
 *  - Else SCHED_OTHER with a short slice request (sched_runtime, Linux
 *    6.12+: an early virtual deadline, so a waking thread preempts at
 *    once; no privilege needed, older kernels ignore it) and nice -10
 *    where allowed (RLIMIT_NICE).  Measured, this helps less: the thread
 *    still waited 100+ ms in all at load 6.
 */
#include <errno.h>
#include <sched.h>
#include <stdint.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "stream_sched.h"

/* sched_setattr(2)'s first version (SCHED_ATTR_SIZE_VER0): glibc 2.36
 * has no wrapper, and <linux/sched/types.h> clashes with <sched.h>. */
struct sched_attr {
	uint32_t size, sched_policy;
	uint64_t sched_flags;
	int32_t sched_nice;
	uint32_t sched_priority;
	uint64_t sched_runtime, sched_deadline, sched_period;
};

#ifndef SCHED_FLAG_RESET_ON_FORK
#define SCHED_FLAG_RESET_ON_FORK 0x01
#endif
#define SHORT_SLICE_NS (100 * 1000ull)	/* the kernel's smallest request */
#define PROMPT_NICE (-10)
#define BUSY_CAP_NS (50 * 1000000ull)
/* The cap counts busy time per window: a writer that leaves one empty
 * look now and then still gets the thread real-time for at most a
 * quarter of the time; demoted, it is raised again in the next window. */
#define WINDOW_NS (4 * BUSY_CAP_NS)

static int set_attr_flags(uint32_t policy, uint32_t prio, int32_t nice, uint64_t slice,
			  uint64_t flags)
{
	struct sched_attr a = { .size = sizeof(a), .sched_policy = policy,
				.sched_flags = flags,
				.sched_nice = nice, .sched_priority = prio,
				.sched_runtime = slice };

	return syscall(SYS_sched_setattr, 0, &a, 0) ? -errno : 0;
}

static int set_attr(uint32_t policy, uint32_t prio, int32_t nice, uint64_t slice)
{
	return set_attr_flags(policy, prio, nice, slice, SCHED_FLAG_RESET_ON_FORK);
}

static bool rt(void)
{
	return !set_attr(SCHED_FIFO, 1, 0, 0);
}

/* SCHED_OTHER, prompt if the kernel lets us (never a higher nice than
 * the thread's own): did it grant anything? */
static bool prompt_other(int32_t was_nice)
{
	struct sched_attr back = { 0 };
	bool nice = was_nice > PROMPT_NICE &&
		    !set_attr(SCHED_OTHER, 0, PROMPT_NICE, SHORT_SLICE_NS);

	if (!nice && set_attr(SCHED_OTHER, 0, was_nice, SHORT_SLICE_NS))
		return false;
	/* A kernel with no slice request reads back 0 (and took the nice). */
	return nice || (!syscall(SYS_sched_getattr, 0, &back, sizeof(back), 0) &&
			back.sched_runtime == SHORT_SLICE_NS);
}

void stream_sched_prompt(struct stream_sched *got, uint64_t now_ns)
{
	struct sched_attr was = { 0 };

	memset(got, 0, sizeof(*got));
	got->window_start = got->last_look = now_ns;
	got->last_found = true;	/* it starts with a look */
	if (syscall(SYS_sched_getattr, 0, &was, sizeof(was), 0))
		return;		/* no way back: stay as we are */
	got->was_policy = was.sched_policy;
	got->was_prio = was.sched_priority;
	got->was_nice = was.sched_nice;
	got->was_slice = was.sched_runtime;
	got->was_flags = was.sched_flags & SCHED_FLAG_RESET_ON_FORK;
	if (was.sched_policy == SCHED_FIFO || was.sched_policy == SCHED_RR ||
	    was.sched_policy == SCHED_DEADLINE) {
		got->prio = STREAM_PRIO_RT;	/* someone chose it: theirs, untouched */
		got->given = true;
	} else if (rt())
		got->prio = STREAM_PRIO_RT;
	else if (prompt_other(was.sched_nice))
		got->prio = STREAM_PRIO_PROMPT;
}

void stream_sched_look(struct stream_sched *s, bool found, uint64_t now_ns)
{
	if (s->prio != STREAM_PRIO_RT || s->given || s->restored)
		return;
	if (s->last_found)	/* no sleep since the last look: busy */
		s->busy_ns += now_ns - s->last_look;
	s->last_look = now_ns;
	s->last_found = found;
	if (now_ns - s->window_start > WINDOW_NS) {
		s->window_start = now_ns;
		s->busy_ns = 0;
		if (s->demoted && !found)
			s->demoted = !rt();
	}
	if (!s->demoted && s->busy_ns > BUSY_CAP_NS) {
		s->demoted = !set_attr(SCHED_OTHER, 0, s->was_nice, SHORT_SLICE_NS);
		s->demotions += s->demoted;
	}
}

bool stream_sched_realtime(const struct stream_sched *s)
{
	return s->prio == STREAM_PRIO_RT && !s->demoted && !s->restored;
}

/*
 * The thread's own policy back.  A thread may always set
 * SCHED_FLAG_RESET_ON_FORK but needs CAP_SYS_NICE to clear it: one call
 * with the flag and the old policy (so that a process allowed real-time
 * by RLIMIT_RTPRIO alone does not stay real-time), then, best effort,
 * the flag as it was.
 */
void stream_sched_normal(struct stream_sched *s)
{
	if (s->prio != STREAM_PRIO_NORMAL && !s->given && !s->restored) {
		set_attr_flags(s->was_policy, s->was_prio, s->was_nice, s->was_slice,
			       s->was_flags | SCHED_FLAG_RESET_ON_FORK);
		if (!s->was_flags)
			set_attr_flags(s->was_policy, s->was_prio, s->was_nice,
				       s->was_slice, 0);
	}
	s->restored = true;	/* prio still says what the stream had */
}

const char *stream_sched_name(const struct stream_sched *s)
{
	switch (s->prio) {
	case STREAM_PRIO_RT:
		if (s->given)
			return "real-time, as it was started";
		return s->demotions ? "real-time, SCHED_FIFO 1, but past 50 ms busy in 200"
				    : "real-time, SCHED_FIFO 1";
	case STREAM_PRIO_PROMPT:
		return "normal priority, short slice";
	default:
		return "normal priority";
	}
}
