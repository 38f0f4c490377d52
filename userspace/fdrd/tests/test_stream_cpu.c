// SPDX-License-Identifier: MIT
/*
 * test_stream_cpu.c - the stream's thread goes to the CPU whose pool
 * wrote a look's bytes, after two looks that agree; several CPUs'
 * writers, a backlog or the end give it its own CPU set back; CPUs
 * outside that set and hostile pool numbers are left alone.  Each check
 * reads the thread's affinity back from the kernel.
 */
#include <sched.h>
#include <stdlib.h>
#include <string.h>

#include "log_layout.h"
#include "stream_cpu.h"
#include "tap.h"

#define NBUF 8

static struct log_buffer bufs[NBUF];

/* A look of n buffers: cpus[i]'s pool, 64 KiB each. */
static struct log_layout look(const uint32_t *cpus, size_t n)
{
	struct log_layout l;

	memset(&l, 0, sizeof(l));
	memset(bufs, 0, sizeof(bufs));
	for (size_t i = 0; i < n; i++) {
		bufs[i].cpu = cpus[i];
		bufs[i].extents = 65536;
	}
	l.buffers = bufs;
	l.nr_buffers = n;
	return l;
}

static cpu_set_t now(void)
{
	cpu_set_t s;

	CPU_ZERO(&s);
	sched_getaffinity(0, sizeof(s), &s);
	return s;
}

static bool only(int cpu)
{
	cpu_set_t s = now();

	return CPU_COUNT(&s) == 1 && CPU_ISSET(cpu, &s);
}

static bool is(const cpu_set_t *want)
{
	cpu_set_t s = now();

	return CPU_EQUAL(&s, want);
}

/* The highest CPU of the thread's set: not the one it starts on, often. */
static int last_allowed(const cpu_set_t *s)
{
	int last = -1;

	for (int c = 0; c < CPU_SETSIZE; c++)
		if (CPU_ISSET(c, s))
			last = c;
	return last;
}

int main(void)
{
	cpu_set_t start = now();
	int x = last_allowed(&start);
	uint32_t one[NBUF], mixed[4], hostile[2] = { 4000000000u, 70000 };
	struct stream_cpu c;
	struct log_layout l;

	tap_plan(10);
	for (int i = 0; i < NBUF; i++)
		one[i] = (uint32_t)x;
	mixed[0] = mixed[1] = (uint32_t)x;
	mixed[2] = mixed[3] = x ? 0u : 1u;

	stream_cpu_begin(&c);
	l = look(one, 4);
	stream_cpu_follow(&c, &l, 4, 1024);
	tap_ok(is(&start), "one look from CPU %d's pool: the thread stays free", x);
	stream_cpu_follow(&c, &l, 4, 1024);
	tap_ok(only(x) && sched_getcpu() == x && c.moves == 1,
	       "a second look that agrees: held to CPU %d, running there", x);
	stream_cpu_follow(&c, &l, 4, 1024);
	tap_ok(only(x) && c.moves == 1, "more looks from it: no new move");

	l = look(mixed, 4);
	stream_cpu_follow(&c, &l, 4, 1024);
	stream_cpu_follow(&c, &l, 4, 1024);
	tap_ok(CPU_COUNT(&start) == 1 || is(&start),
	       "half the bytes from another CPU, twice: its own set again");

	l = look(one, 4);
	stream_cpu_follow(&c, &l, 4, 1024);
	stream_cpu_follow(&c, &l, 4, 1024);
	tap_ok(only(x), "held again after two looks from CPU %d", x);
	stream_cpu_follow(&c, &l, 200, 1024);
	tap_ok(is(&start), "a backlog (200 of 1024 buffers ready): freed at once");

	stream_cpu_follow(&c, &l, 4, 1024);
	stream_cpu_end(&c);
	tap_ok(is(&start), "the end: its own set again");

	stream_cpu_begin(&c);
	l = look(hostile, 2);
	stream_cpu_follow(&c, &l, 2, 1024);
	stream_cpu_follow(&c, &l, 2, 1024);
	tap_ok(is(&start) && c.moves == 0, "pool numbers past every CPU: ignored");
	stream_cpu_end(&c);

	if (x + 1 < CPU_SETSIZE) {
		uint32_t outside[1] = { (uint32_t)x + 1 };	/* not in the set */

		stream_cpu_begin(&c);
		l = look(outside, 1);
		stream_cpu_follow(&c, &l, 1, 1024);
		stream_cpu_follow(&c, &l, 1, 1024);
		tap_ok(is(&start) && c.moves == 0, "a CPU outside the thread's set: left alone");
		stream_cpu_end(&c);
	} else {
		tap_skip("the set ends at CPU_SETSIZE", "a CPU outside the thread's set");
	}
	l = look(one, 0);
	stream_cpu_begin(&c);
	stream_cpu_follow(&c, &l, 0, 1024);
	stream_cpu_follow(&c, &l, 0, 1024);
	tap_ok(is(&start) && c.moves == 0, "an empty look: nothing moves");
	stream_cpu_end(&c);
	return tap_done();
}
