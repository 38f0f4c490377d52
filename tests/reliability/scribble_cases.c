// SPDX-License-Identifier: MIT
/* scribble_cases.c - see scribble_cases.h.  Values are the classics:
 * just past a limit, negative, huge, unaligned, all ones, random. */
#include <stdlib.h>
#include <string.h>
#include "scribble_cases.h"

static struct fdr_buffer_desc *desc(const struct scribble_map *m, uint32_t i)
{
	return (struct fdr_buffer_desc *)(m->base + m->descs_offset) + i;
}

static struct fdr_control *control(const struct scribble_map *m)
{
	return (struct fdr_control *)m->base;
}

static uint64_t rnd64(unsigned *seed)
{
	return (uint64_t)rand_r(seed) << 33 ^ (uint64_t)rand_r(seed) << 11 ^
	       (uint64_t)rand_r(seed);
}

static void extents_past_end(const struct scribble_map *m, unsigned *seed)
{
	static const uint64_t bad[] = { 0, 1, 4096, 1ull << 40, ~0ull, 1ull << 63 };

	for (uint32_t i = 0; i < m->nr_buffers; i++)
		desc(m, i)->extents = m->buffer_size +
				      bad[(unsigned)rand_r(seed) % 6];
}

/* Inside the buffer but through the middle of a record. */
static void extents_mid_record(const struct scribble_map *m, unsigned *seed)
{
	for (uint32_t i = 0; i < m->nr_buffers; i++) {
		struct fdr_buffer_desc *d = desc(m, i);

		if (i % 2)
			d->extents = d->extents > 5 ? d->extents - 3 : 17;
		else
			d->extents = (uint64_t)rand_r(seed) % m->buffer_size;
	}
}

static void desc_states(const struct scribble_map *m, unsigned *seed)
{
	static const uint32_t bad[] = { 3, 0xdeadbeef, ~0u, FDR_BUF_FREE,
					FDR_BUF_HELD, FDR_BUF_RELEASED };

	for (uint32_t i = 0; i < m->nr_buffers; i++)
		desc(m, i)->state = bad[(unsigned)rand_r(seed) % 6];
}

static void desc_owners(const struct scribble_map *m, unsigned *seed)
{
	static const int32_t pids[] = { -1, 0, 1, 0x7fffffff, -0x7fffffff - 1 };

	for (uint32_t i = 0; i < m->nr_buffers; i++) {
		struct fdr_buffer_desc *d = desc(m, i);

		d->owner_pid = pids[(unsigned)rand_r(seed) % 5];
		d->owner_tid = pids[(unsigned)rand_r(seed) % 5];
		d->generation = (uint32_t)rand_r(seed);
		d->seq = i % 3 ? 0 : ~0ull - i;	/* duplicates and huge */
	}
}

static void desc_placement(const struct scribble_map *m, unsigned *seed)
{
	for (uint32_t i = 0; i < m->nr_buffers; i++) {
		struct fdr_buffer_desc *d = desc(m, i);

		d->offset = rnd64(seed);
		d->cpu = 9999 + i;
		d->node = ~0u;
		memset(d->reserved, 0xff, sizeof(d->reserved));
	}
}

static void control_geometry(const struct scribble_map *m, unsigned *seed)
{
	struct fdr_control *c = control(m);

	c->magic = 0x0BADF00D;
	c->abi_version = 0xffff;
	c->header_size = 7;
	c->buffer_size = 1ull << 40;
	c->nr_cpus = ~0u;
	c->buffers_per_cpu = (uint32_t)rand_r(seed);
	c->nr_buffers = ~0u;
	c->rings_offset = ~0u - 5;
	c->descs_offset = (uint32_t)m->len - 8;
	c->control_size = ~0ull;
	c->tsc_hz = ~0ull;
}

static void control_state(const struct scribble_map *m, unsigned *seed)
{
	struct fdr_control *c = control(m);

	c->state = 77;
	c->flush_state = 99;
	c->finalize_reason = ~0u;
	c->finalize_signal = 1000;
	c->finalize_pid = -1;
	c->generation = (uint32_t)rand_r(seed);
	c->next_seq = ~0ull;
	c->buffers_acquired = ~0ull;
	c->buffers_recycled = ~0ull;
	c->records_dropped = ~0ull;
	c->buffers_reclaimed = ~0ull;
	for (uint32_t i = 0; i < m->nr_cpus; i++)
		((struct fdr_cpu_ring *)(m->base + m->rings_offset))[i].next = rnd64(seed);
}

/*
 * The words that name the generation and say how to read its clock and
 * why it ended, each to a value it cannot have: generation with the top
 * bit flipped, every flag inverted (FDR_CTL_EMBEDDED too), a 12 kHz TSC.
 * Assignments, not toggles: the case is applied twice.
 */
static void control_identity(const struct scribble_map *m, unsigned *seed)
{
	struct fdr_control *c = control(m);

	(void)seed;
	c->generation = m->generation ^ 0x80000000u;
	c->flags = ~m->flags;
	c->tsc_hz = 12345;
	c->finalize_reason = ~0u;
	c->finalize_signal = 1000;
	c->finalize_pid = -1;
}

static void control_random(const struct scribble_map *m, unsigned *seed)
{
	for (uint64_t i = 0; i < m->control_size; i++)
		m->base[i] = (uint8_t)rand_r(seed);
}

/* Random bytes inside committed data: records fdrd must not pass on. */
void scribble_data_random(const struct scribble_map *m, unsigned *seed)
{
	for (uint32_t i = 0; i < m->nr_buffers; i++) {
		uint8_t *buf = m->base + m->control_size + (uint64_t)i * m->buffer_size;
		uint64_t ext = desc(m, i)->extents;

		if (ext > m->buffer_size)
			continue;
		for (int j = 0; j < 64 && ext; j++)
			buf[(uint64_t)rand_r(seed) % ext] = (uint8_t)rand_r(seed);
	}
}

static void everything(const struct scribble_map *m, unsigned *seed)
{
	scribble_data_random(m, seed);
	extents_mid_record(m, seed);
	desc_owners(m, seed);
	desc_states(m, seed);
	control_state(m, seed);
	control_geometry(m, seed);
}

/* name, apply, control, want_log, device_log, after_finalize */
const struct scribble_case scribble_cases[] = {
	{ "extents past the buffer end", extents_past_end, false, true, false, false },
	{ "extents through a record", extents_mid_record, false, true, false, false },
	{ "descriptor states", desc_states, false, false, false, false },
	{ "owners, generations, sequence numbers", desc_owners, false, false, false, false },
	{ "descriptor offsets, cpus, nodes, reserved", desc_placement, false, true, false, false },
	{ "random bytes in committed data", scribble_data_random, false, true, false, false },
	{ "control area state words, counters, ring cursors", control_state,
	  true, false, true, false },
	{ "control area generation, flags, TSC rate, finalize trigger", control_identity,
	  true, false, true, true },
	{ "control area geometry", control_geometry, true, false, true, false },
	{ "random control area", control_random, true, false, false, false },
	{ "all of it", everything, true, false, false, false },
};
const unsigned scribble_nr_cases = sizeof(scribble_cases) / sizeof(scribble_cases[0]);
