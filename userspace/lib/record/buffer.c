// SPDX-License-Identifier: MIT
/*
 * buffer.c - taking and giving back buffers, once per buffer, without a
 * syscall: the protocol of uapi/linux/fdr.h.
 *
 * A thread takes the next slot of the pool of the CPU it runs on (ring
 * order: the slot after the one handed out last, so a RELEASED slot
 * reached again is the pool's oldest data - the flight-recorder
 * overwrite), falling back to the other CPUs' pools when all of its own
 * are HELD.  Nothing free anywhere: the record is dropped and counted.
 *
 * In a stream region (FDR_CTL_STREAM) a RELEASED buffer is data the
 * stream flusher has not written yet: only FREE buffers are taken, and
 * with none the record is dropped, never waited for.  There the lowest
 * FREE slot of the pool is taken, not the next in ring order: the few
 * buffers the flusher keeps handing back are used again and again (their
 * pages touched once: a first touch costs ~5.5 us a page on some guests,
 * bench/flush/README.md), and the rest of a large ring is touched only
 * when a burst, or a flusher kept off its CPU, needs it.
 */
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>
#include "recorder.h"

__FDR_NO_INSTRUMENT static void count(__u64 *counter)
{
	__atomic_fetch_add(counter, 1, __ATOMIC_RELAXED);
}

/* In the ring of the CPU the writer runs on: writers on other CPUs
 * bump other cache lines, not one shared counter. */
__FDR_NO_INSTRUMENT void fdr__count_drop(struct fdr_region *r, uint32_t cpu)
{
	if (r)
		count(&r->rings[cpu % r->nr_cpus].records_dropped);
}

/* CLOCK_MONOTONIC in µs, strictly increasing per thread (XRay orders a
 * thread's buffers by it). */
__FDR_NO_INSTRUMENT static uint64_t walltime_us(struct fdr_thread *t)
{
	struct timespec ts;
	uint64_t us;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	us = (uint64_t)ts.tv_sec * 1000000u + (uint64_t)ts.tv_nsec / 1000u;
	if (us <= t->last_wall_us)
		us = t->last_wall_us + 1;
	t->last_wall_us = us;
	return us;
}

/* NewBuffer(tid) + WalltimeMarker: extents start at the preamble size.
 * NewCPUId follows with the first record (cpu FDR__CPU_NONE). */
__FDR_NO_INSTRUMENT static void write_buffer_start(struct fdr_thread *t)
{
	uint64_t us = walltime_us(t);
	uint64_t sec = us / 1000000u;
	uint32_t usec = (uint32_t)(us % 1000000u);
	uint8_t wall[12];

	fdr__put_metadata(t->buf, FDR_MD_NEW_BUFFER, &t->tid, sizeof(t->tid));
	memcpy(wall, &sec, 8);
	memcpy(wall + 8, &usec, 4);
	fdr__put_metadata(t->buf + FDR_METADATA_SIZE, FDR_MD_WALLTIME, wall,
			  sizeof(wall));
	t->pos = FDR_BUFFER_PREAMBLE_SIZE;
	t->cpu = FDR__CPU_NONE;
	t->latest_tsc = 0;
	t->last_entry_tsc = 0;
	t->undo_enters = 0;
	t->undo_tails = 0;
	fdr__publish(t);
}

/* May a writer take a buffer in state s?  Never a HELD one; a RELEASED
 * one only in flight-recorder mode (in a stream region it is unwritten). */
__FDR_NO_INSTRUMENT static bool takeable(const struct fdr_region *r, uint32_t s)
{
	return s == FDR_BUF_FREE || (s == FDR_BUF_RELEASED && !r->stream);
}

/* CAS one slot to HELD and make it ours; false if someone was faster. */
__FDR_NO_INSTRUMENT static bool claim(struct fdr_region *r, struct fdr_buffer_desc *d)
{
	uint32_t s = __atomic_load_n(&d->state, __ATOMIC_ACQUIRE);
	uint64_t old;

	if (!takeable(r, s) ||
	    !__atomic_compare_exchange_n(&d->state, &s, FDR_BUF_HELD, false,
					 __ATOMIC_ACQ_REL, __ATOMIC_RELAXED))
		return false;
	/* Unpublish the old data before overwriting a single byte of it. */
	old = __atomic_exchange_n(&d->extents, 0, __ATOMIC_ACQ_REL);
	if (s == FDR_BUF_RELEASED && old)
		count(&r->ctl->buffers_recycled);
	return true;
}

/*
 * A stream region: the pool's lowest FREE slot (see the top of the
 * file).  A flusher that is behind leaves none for a while, and every
 * record meanwhile comes here to be dropped: plain loads until one looks
 * FREE, no write to a shared line.
 */
__FDR_NO_INSTRUMENT static struct fdr_buffer_desc *take_lowest_free(struct fdr_region *r,
							    uint32_t pool)
{
	struct fdr_buffer_desc *d = &r->descs[(uint64_t)pool * r->buffers_per_cpu];

	for (uint32_t j = 0; j < r->buffers_per_cpu; j++)
		if (__atomic_load_n(&d[j].state, __ATOMIC_RELAXED) == FDR_BUF_FREE &&
		    claim(r, &d[j]))
			return &d[j];
	return NULL;
}

__FDR_NO_INSTRUMENT static struct fdr_buffer_desc *take_from_pool(struct fdr_region *r,
							  uint32_t pool)
{
	struct fdr_cpu_ring *ring = &r->rings[pool];
	struct fdr_buffer_desc *descs = r->descs;
	uint32_t bpc = r->buffers_per_cpu;
	uint64_t pos;

	if (r->stream)
		return take_lowest_free(r, pool);
	pos = __atomic_fetch_add(&ring->next, 1, __ATOMIC_RELAXED);

	for (uint32_t j = 0; j < bpc; j++) {
		struct fdr_buffer_desc *d =
			&descs[(uint64_t)pool * bpc + (pos + j) % bpc];

		if (claim(r, d))
			return d;
	}
	return NULL;
}

/*
 * Fault the buffer's pages in here, once per buffer, rather than one by
 * one under the records that first touch them.  The embedded region is
 * mapped without MAP_POPULATE (ctl_embedded.c), so that a large region
 * costs a process only the buffers it uses; on the device every page is
 * mapped already and this finds nothing to do.  Best effort: a kernel
 * without MADV_POPULATE_WRITE (before 5.14) faults them in as records
 * touch them, which only costs time.
 */
__FDR_NO_INSTRUMENT static void populate(uint8_t *buf, uint64_t size)
{
#ifdef MADV_POPULATE_WRITE
	madvise(buf, size, MADV_POPULATE_WRITE);
#else
	(void)buf;
	(void)size;
#endif
}

__FDR_NO_INSTRUMENT int fdr__buffer_acquire(struct fdr_thread *t, struct fdr_region *r,
				    uint32_t cpu)
{
	struct fdr_control *c = r->ctl;
	struct fdr_buffer_desc *d = NULL;
	uint32_t nr = r->nr_cpus, home = cpu % nr;
	uint64_t seq;

	for (uint32_t k = 0; k < nr && !d; k++)
		d = take_from_pool(r, (home + k) % nr);
	if (!d)
		return -1;
	d->owner_tid = t->tid;
	d->owner_pid = fdr__pid;
	d->generation = c->generation;
	seq = __atomic_fetch_add(&c->next_seq, 1, __ATOMIC_RELAXED);
	__atomic_store_n(&d->seq, seq, __ATOMIC_RELEASE);	/* after the pid: see reclaim.c */
	count(&c->buffers_acquired);
	t->region = r;
	t->ctl = c;
	t->threshold = r->threshold_ticks;
	t->cpu_offset = fdr__rseq_cpu_offset;
	t->desc = d;
	t->generation = c->generation;
	t->buf = r->buffers + (uint64_t)(d - r->descs) * r->buffer_size;
	t->size = fdr__usable_size(r);
	fdr__trigger_take(t, r);	/* t->fast_size */
	populate(t->buf, r->buffer_size);
	fdr__owner_note_write(t, r, seq);	/* before the preamble publishes */
	write_buffer_start(t);
	return 0;
}

/*
 * Give the buffer back (its committed extents stay for the flusher).  A
 * buffer of an older generation is no longer ours: INIT reset the
 * descriptors, and a new writer may hold this one.
 */
__FDR_NO_INSTRUMENT void fdr__buffer_release(struct fdr_thread *t)
{
	struct fdr_buffer_desc *d = t->desc;
	struct fdr_control *c;

	if (!d)
		return;
	c = t->region->ctl;
	if (c->generation == t->generation && d->generation == t->generation &&
	    d->owner_tid == t->tid)
		__atomic_store_n(&d->state, FDR_BUF_RELEASED, __ATOMIC_RELEASE);
	t->desc = NULL;
	t->ctl = &fdr__no_control;
	t->buf = NULL;
	t->pos = 0;
	t->fast_size = 0;
}
