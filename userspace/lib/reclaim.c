// SPDX-License-Identifier: MIT
/*
 * reclaim.c - what the kernel does for the device and the controller must
 * do for an embedded region: give back buffers held by processes that no
 * longer exist, and summarize the control area as a struct fdr_status.
 */
#include <errno.h>
#include <signal.h>
#include <stdatomic.h>
#include <string.h>
#include "internal.h"

/*
 * The descriptors as far as they lie inside the mapping.  Any process
 * that can write the region can scribble nr_buffers and descs_offset, so
 * both are read once and bounded by what we actually mapped.
 */
FDR_NOINSTR static uint32_t descs_in_map(const struct fdr_control *c,
					 size_t map_len,
					 struct fdr_buffer_desc **descs)
{
	uint64_t off = __atomic_load_n(&c->descs_offset, __ATOMIC_RELAXED);
	uint64_t nr = __atomic_load_n(&c->nr_buffers, __ATOMIC_RELAXED);

	if (off < FDR_CONTROL_HEADER_SIZE || off % FDR_BUFFER_DESC_SIZE ||
	    off >= map_len)
		return 0;
	if (nr > (map_len - off) / FDR_BUFFER_DESC_SIZE)
		nr = (map_len - off) / FDR_BUFFER_DESC_SIZE;
	*descs = (struct fdr_buffer_desc *)((char *)c + off);
	return (uint32_t)nr;
}

/* The same for the per-CPU rings. */
FDR_NOINSTR static uint32_t rings_in_map(const struct fdr_control *c,
					 size_t map_len,
					 struct fdr_cpu_ring **rings)
{
	uint64_t off = __atomic_load_n(&c->rings_offset, __ATOMIC_RELAXED);
	uint64_t nr = __atomic_load_n(&c->nr_cpus, __ATOMIC_RELAXED);

	if (off < FDR_CONTROL_HEADER_SIZE || off % FDR_CPU_RING_SIZE ||
	    off >= map_len)
		return 0;
	if (nr > (map_len - off) / FDR_CPU_RING_SIZE)
		nr = (map_len - off) / FDR_CPU_RING_SIZE;
	*rings = (struct fdr_cpu_ring *)((char *)c + off);
	return (uint32_t)nr;
}

FDR_NOINSTR static bool process_gone(pid_t pid)
{
	return pid > 0 && kill(pid, 0) < 0 && errno == ESRCH;
}

/*
 * HELD by a dead process -> RELEASED, keeping its committed extents so the
 * flusher still writes what it recorded.  A writer that takes a buffer
 * CASes it to HELD, then stores its pid, then a new seq: an unchanged seq
 * around the check means the pid we judged is still the holder's, except
 * in the few instructions between that writer's CAS and its seq store.
 */
FDR_NOINSTR uint64_t fdr__reclaim_dead_writers(struct fdr_control *c,
					       size_t map_len)
{
	struct fdr_buffer_desc *d = NULL;
	uint32_t nr = descs_in_map(c, map_len, &d);
	uint64_t n = 0;

	for (uint32_t i = 0; i < nr; i++) {
		_Atomic uint32_t *state = (_Atomic uint32_t *)&d[i].state;
		uint32_t held = FDR_BUF_HELD;
		uint64_t seq = __atomic_load_n(&d[i].seq, __ATOMIC_ACQUIRE);

		if (atomic_load_explicit(state, memory_order_acquire) != held ||
		    !process_gone(__atomic_load_n(&d[i].owner_pid, __ATOMIC_ACQUIRE)) ||
		    __atomic_load_n(&d[i].seq, __ATOMIC_ACQUIRE) != seq)
			continue;
		if (atomic_compare_exchange_strong(state, &held,
						   FDR_BUF_RELEASED))
			n++;
	}
	if (n)
		atomic_fetch_add((_Atomic uint64_t *)&c->buffers_reclaimed, n);
	return n;
}

FDR_NOINSTR static uint32_t buffers_held(const struct fdr_control *c,
					 size_t map_len)
{
	struct fdr_buffer_desc *d = NULL;
	uint32_t nr = descs_in_map(c, map_len, &d);
	uint32_t n = 0;

	for (uint32_t i = 0; i < nr; i++)
		n += atomic_load_explicit((_Atomic uint32_t *)&d[i].state,
					  memory_order_relaxed) == FDR_BUF_HELD;
	return n;
}

/* STATUS.records_dropped: the control page's counter (older writers)
 * and every CPU's. */
FDR_NOINSTR static uint64_t records_dropped(const struct fdr_control *c,
					    size_t map_len)
{
	struct fdr_cpu_ring *r = NULL;
	uint32_t nr = rings_in_map(c, map_len, &r);
	uint64_t n = __atomic_load_n(&c->records_dropped, __ATOMIC_RELAXED);

	for (uint32_t i = 0; i < nr; i++)
		n += __atomic_load_n(&r[i].records_dropped, __ATOMIC_RELAXED);
	return n;
}

FDR_NOINSTR void fdr__status_from_control(const struct fdr_control *c,
					  size_t map_len,
					  struct fdr_status *st)
{
	memset(st, 0, sizeof(*st));
	st->size = sizeof(*st);
	st->state = atomic_load((_Atomic uint32_t *)&c->state);
	st->flush_state = atomic_load((_Atomic uint32_t *)&c->flush_state);
	st->flags = c->flags;
	st->generation = c->generation;
	st->buffers_per_cpu = c->buffers_per_cpu;
	st->buffer_size = c->buffer_size;
	st->nr_cpus = c->nr_cpus;
	st->nr_buffers = c->nr_buffers;
	st->control_size = c->control_size;
	st->map_size = c->control_size + (uint64_t)c->nr_buffers * c->buffer_size;
	st->tsc_hz = c->tsc_hz;
	st->default_buffer_size = FDR_EMBEDDED_DEFAULT_BUFFER_SIZE;
	st->default_buffers_per_cpu = FDR_EMBEDDED_DEFAULT_BUFFERS_PER_CPU;
	st->buffers_in_use = buffers_held(c, map_len);
	st->buffers_acquired = c->buffers_acquired;
	st->buffers_recycled = c->buffers_recycled;
	st->buffers_reclaimed = c->buffers_reclaimed;
	st->records_dropped = records_dropped(c, map_len);
	st->finalize_reason = c->finalize_reason;
	st->finalize_signal = c->finalize_signal;
	st->finalize_pid = c->finalize_pid;
	st->trigger_ns = c->trigger_ns;
	st->trigger_fid = c->trigger_fid;
	st->trigger_holdoff_ms = c->trigger_holdoff_ms;
	st->finalize_tid = c->finalize_tid;
	st->finalize_fid = c->finalize_fid;
	st->finalize_duration_ns = c->finalize_duration_ns;
	st->triggers_fired = c->triggers_fired;
	st->triggers_refused = c->triggers_refused;
}
