// SPDX-License-Identifier: MIT
/*
 * trigger.c - the latency trigger, writer side: a call whose Exit this
 * thread records at least trigger_ns after its Enter (of trigger_fid, or
 * of any function when 0) finalizes the region, through FDR_IOC_TRIGGER
 * (device) or the embedded transition.
 *
 * Nothing here runs unless the region has a trigger: then a taken buffer
 * gets fast_size 0 (buffer.c), the inline path of <fdr_inline.h> never
 * matches, and every record comes through record.c's general path, which
 * calls in here after the record is written and published.  Without a
 * trigger fast_size is the buffer's size and the inline path is exactly
 * what it is without this file.
 *
 * Per thread, a shadow stack of (fid, Enter TSC), TRIG_DEPTH deep; deeper
 * frames are counted, not tracked.  An Exit pops the innermost frame of
 * its fid, and every frame above it (their exits were unwound away: a
 * longjmp, an exception); an Exit whose fid is not on the stack (a call
 * entered before recording began) changes nothing.  The stack belongs to
 * one region generation and starts empty in the next.
 *
 * Firing costs the firing thread one syscall (the embedded transition
 * only a futex wake), never a lock or an allocation: it runs inside the
 * record's re-entry guard, possibly in a signal handler.  It is skipped
 * before the region's trigger_not_before_tsc (the holdoff of the last
 * trigger, as the kernel or the embedded owner published it) and inside
 * this thread's own quiet time: after an -EAGAIN (holdoff) the thread
 * does not ask again for one holdoff, in that region (a new mapping, i.e.
 * a new INIT or another target, starts without one: the holdoff that
 * goes on across INIT is in the new region's trigger_not_before_tsc).
 *
 * Everything read from the control area is hostile: a scribbled value can
 * change this process's trigger decisions, nothing more.
 */
#include <errno.h>
#include "recorder.h"

#define TRIG_DEPTH	256

struct trig_frame {
	int32_t fid;
	uint64_t tsc;
};

struct trig_thread {
	/* the trigger of the held buffer's region, read at take time */
	uint64_t ticks;			/* trigger_ns in TSC ticks */
	uint64_t holdoff_ticks;		/* trigger_holdoff_ms in ticks */
	uint64_t hz;
	int32_t fid;			/* 0: any function */
	/* the shadow stack, of one region generation */
	const struct fdr_region *region;
	uint32_t generation;
	uint32_t depth;			/* frames in f[] */
	uint64_t untracked;		/* frames deeper than TRIG_DEPTH */
	uint64_t quiet_until;		/* TSC: no trigger before this */
	struct trig_frame f[TRIG_DEPTH];
};

/* Not in <fdr_inline.h>'s writer (its layout is ABI); the default TLS
 * model: 4 KiB of initial-exec TLS would break a dlopen()ed libfdr.so. */
static __thread struct trig_thread tt;

#ifdef FDR_TEST_HOOKS
/* Triggers this process sent (each one syscall), for the tests. */
uint64_t fdr__test_trigger_sends;
#endif

__FDR_NO_INSTRUMENT static uint64_t scale(uint64_t v, uint64_t hz, double unit)
{
	double x = (double)v * (double)hz / unit;

	return x >= 1.8e19 ? UINT64_MAX : (uint64_t)x;
}

__FDR_NO_INSTRUMENT void fdr__trigger_take(struct fdr_thread *t, struct fdr_region *r)
{
	const struct fdr_control *c = r->ctl;
	uint64_t ns = __atomic_load_n(&c->trigger_ns, __ATOMIC_RELAXED);
	int32_t fid = __atomic_load_n(&c->trigger_fid, __ATOMIC_RELAXED);
	uint32_t holdoff = __atomic_load_n(&c->trigger_holdoff_ms,
					   __ATOMIC_RELAXED);

	if (tt.region != r || tt.generation != t->generation) {
		/* A new mapping (each INIT gives one): its own quiet time; the
		 * holdoff that goes on across INIT is the region's hint. */
		if (tt.region != r)
			tt.quiet_until = 0;
		tt.region = r;
		tt.generation = t->generation;
		tt.depth = 0;
		tt.untracked = 0;
	}
	/* No TSC rate: no duration can be measured, so no trigger. */
	if (!ns || !r->tsc_hz || fid < 0) {
		tt.ticks = 0;
		t->fast_size = t->size;
		return;
	}
	if (holdoff > FDR_TRIGGER_HOLDOFF_MAX_MS)
		holdoff = FDR_TRIGGER_HOLDOFF_MAX_MS;
	tt.hz = r->tsc_hz;
	tt.ticks = scale(ns, r->tsc_hz, 1e9);
	if (!tt.ticks)
		tt.ticks = 1;
	tt.holdoff_ticks = scale(holdoff, r->tsc_hz, 1e3);
	tt.fid = fid;
	t->fast_size = 0;
}

__FDR_NO_INSTRUMENT void fdr__trigger_enter(int32_t fid, uint64_t tsc)
{
	if (tt.depth < TRIG_DEPTH) {
		tt.f[tt.depth].fid = fid;
		tt.f[tt.depth].tsc = tsc;
		tt.depth++;
	} else {
		tt.untracked++;
	}
}

__FDR_NO_INSTRUMENT static void fire(struct fdr_thread *t, int32_t fid,
			     uint64_t ticks, uint64_t tsc)
{
	const struct fdr_control *c = t->ctl;
	uint64_t ns;
	int saved = errno, ret;

	if (tsc < tt.quiet_until ||
	    tsc < __atomic_load_n(&c->trigger_not_before_tsc, __ATOMIC_RELAXED))
		return;
	ns = scale(ticks, 1000000000u, (double)tt.hz);
#ifdef FDR_TEST_HOOKS
	fdr__test_trigger_sends++;
#endif
	ret = fdr__trigger_send(t->region, fid, ns, t->tid);
	if (ret == -EAGAIN)
		tt.quiet_until = tsc + tt.holdoff_ticks;
	/* -EBUSY: finalized already (by another trigger); nothing to do */
	errno = saved;
}

__FDR_NO_INSTRUMENT void fdr__trigger_exit(struct fdr_thread *t, int32_t fid,
				   uint64_t tsc, bool erased)
{
	uint32_t i;
	uint64_t ticks;

	if (tt.region != t->region || tt.generation != t->generation)
		return;
	if (tt.untracked) {
		tt.untracked--;
		return;
	}
	for (i = tt.depth; i > 0 && tt.f[i - 1].fid != fid; i--)
		;
	if (i == 0)
		return;		/* entered before recording began */
	tt.depth = i - 1;
	ticks = tsc - tt.f[i - 1].tsc;
	if (erased || !tt.ticks || tsc < tt.f[i - 1].tsc || ticks < tt.ticks ||
	    (tt.fid && fid != tt.fid))
		return;
	fire(t, fid, ticks, tsc);
}
