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

__FDR_NO_INSTRUMENT static bool process_gone(pid_t pid)
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
__FDR_NO_INSTRUMENT uint64_t fdr__reclaim_dead_writers(struct fdr_control *c,
					       size_t map_len)
{
	struct fdr_region_view v;
	struct fdr_buffer_desc *d;
	uint64_t n = 0;

	/* Any process that can write the region can scribble its geometry:
	 * a view that does not fit what we mapped reclaims nothing. */
	if (fdr_region_view(&v, c, map_len, NULL))
		return 0;
	d = v.descs;
	for (uint32_t i = 0; i < v.nr_buffers; i++) {
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

__FDR_NO_INSTRUMENT static uint32_t buffers_held(const struct fdr_region_view *v)
{
	uint32_t n = 0;

	for (uint32_t i = 0; i < v->nr_buffers; i++)
		n += atomic_load_explicit((_Atomic uint32_t *)&v->descs[i].state,
					  memory_order_relaxed) == FDR_BUF_HELD;
	return n;
}

/* What every CPU's ring says its writers dropped. */
__FDR_NO_INSTRUMENT static uint64_t ring_drops(const struct fdr_region_view *v)
{
	uint64_t n = 0;

	for (uint32_t i = 0; i < v->nr_cpus; i++)
		n += __atomic_load_n(&v->rings[i].records_dropped,
				     __ATOMIC_RELAXED);
	return n;
}

/*
 * The geometry words, each read once into st: the counting below goes
 * through a view of this copy, checked against what we mapped.
 */
__FDR_NO_INSTRUMENT static void geometry_from_control(const struct fdr_control *c,
					      struct fdr_status *st)
{
#define ONCE(field) __atomic_load_n(&c->field, __ATOMIC_RELAXED)
	st->flags = ONCE(flags);
	st->generation = ONCE(generation);
	st->buffers_per_cpu = ONCE(buffers_per_cpu);
	st->buffer_size = ONCE(buffer_size);
	st->nr_cpus = ONCE(nr_cpus);
	st->nr_buffers = ONCE(nr_buffers);
	st->control_size = ONCE(control_size);
	st->map_size = st->control_size + (uint64_t)st->nr_buffers * st->buffer_size;
	st->page_size = (uint32_t)fdr__page_size();
	st->rings_offset = ONCE(rings_offset);
	st->descs_offset = ONCE(descs_offset);
	st->buffers_offset = st->control_size;
#undef ONCE
}

__FDR_NO_INSTRUMENT void fdr__status_from_control(const struct fdr_control *c,
					  size_t map_len,
					  struct fdr_status *st)
{
	struct fdr_region_view v;
	/* STATUS.records_dropped: the page's counter (older writers) and
	 * every CPU's */
	uint64_t dropped = __atomic_load_n(&c->records_dropped, __ATOMIC_RELAXED);

	memset(st, 0, sizeof(*st));
	st->size = sizeof(*st);
	st->state = atomic_load((_Atomic uint32_t *)&c->state);
	st->flush_state = atomic_load((_Atomic uint32_t *)&c->flush_state);
	geometry_from_control(c, st);
	st->tsc_hz = c->tsc_hz;
	st->default_buffer_size = FDR_EMBEDDED_DEFAULT_BUFFER_SIZE;
	st->default_buffers_per_cpu = FDR_EMBEDDED_DEFAULT_BUFFERS_PER_CPU;
	/* No view (a scribbled page): nothing counted, nothing indexed. */
	if (fdr_region_view(&v, c, map_len, st) == 0) {
		st->buffers_in_use = buffers_held(&v);
		dropped += ring_drops(&v);
	}
	st->buffers_acquired = c->buffers_acquired;
	st->buffers_recycled = c->buffers_recycled;
	st->buffers_reclaimed = c->buffers_reclaimed;
	st->records_dropped = dropped;
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
