// SPDX-License-Identifier: MIT
/*
 * stream_cpu.c - the stream's thread on its writers' CPU (stream_cpu.h).
 */
#include <string.h>

#include "stream_cpu.h"

/* A look follows one CPU when at least 3/4 of its bytes are from its pool. */
#define SHARE_NUM 3
#define SHARE_DEN 4
/* Looks in a row that must agree before the thread moves (or is freed):
 * writers that take turns on two CPUs do not drag it to and fro. */
#define STEADY 2
/* A backlog of this share of the region frees the thread at once. */
#define BACKLOG_DEN 8
/* Pools counted; CPUs past it are never followed. */
#define MAX_POOLS 1024

void stream_cpu_begin(struct stream_cpu *c)
{
	memset(c, 0, sizeof(*c));
	c->on = -1;
	c->want = -1;
	c->known = !sched_getaffinity(0, sizeof(c->allowed), &c->allowed);
}

/* Run anywhere the thread could at the start. */
static void release(struct stream_cpu *c)
{
	if (c->on >= 0 && !sched_setaffinity(0, sizeof(c->allowed), &c->allowed))
		c->on = -1;
}

static void hold(struct stream_cpu *c, int cpu)
{
	cpu_set_t one;

	if (cpu == c->on || !CPU_ISSET(cpu, &c->allowed))
		return;
	CPU_ZERO(&one);
	CPU_SET(cpu, &one);
	if (!sched_setaffinity(0, sizeof(one), &one)) {
		c->on = cpu;
		c->moves++;
	}
}

void stream_cpu_follow(struct stream_cpu *c, const struct log_layout *l, size_t ready,
		       size_t total)
{
	uint64_t bytes[MAX_POOLS], all = 0, best = 0;
	int cpu = -1;

	if (!c->known || !l->nr_buffers)
		return;
	if (ready * BACKLOG_DEN > total) {
		release(c);
		return;
	}
	for (size_t i = 0; i < l->nr_buffers; i++)
		if (l->buffers[i].cpu < MAX_POOLS)
			bytes[l->buffers[i].cpu] = 0;
	for (size_t i = 0; i < l->nr_buffers; i++) {
		uint32_t p = l->buffers[i].cpu;

		all += l->buffers[i].extents;
		if (p >= MAX_POOLS || p >= CPU_SETSIZE)
			continue;
		bytes[p] += l->buffers[i].extents;
		if (bytes[p] > best) {
			best = bytes[p];
			cpu = (int)p;
		}
	}
	if (cpu >= 0 && best * SHARE_DEN < all * SHARE_NUM)
		cpu = -1;	/* several CPUs' writers: any CPU */
	if (cpu != c->want) {
		c->want = cpu;
		c->streak = 0;
	}
	if (c->streak < STEADY && ++c->streak < STEADY)
		return;
	if (cpu >= 0)
		hold(c, cpu);
	else
		release(c);
}

void stream_cpu_end(struct stream_cpu *c)
{
	release(c);
}
