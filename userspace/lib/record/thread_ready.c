// SPDX-License-Identifier: MIT
/*
 * thread_ready.c - the slow path of a record: the thread has no buffer, its
 * buffer is full, or the region stopped recording.
 */
#include <unistd.h>
#include <sys/syscall.h>
#include "recorder.h"

const struct fdr_control fdr__no_control;	/* state UNINITIALIZED */
__thread struct fdr_thread fdr__thread __attribute__((tls_model("initial-exec"))) = {
	.ctl = &fdr__no_control,
	.cpu = FDR__CPU_NONE,
};

/*
 * Records this thread lost in a stream region for want of a free buffer,
 * told by a drop marker at the start of the next buffer it gets there.
 * Not in struct fdr_thread: that layout is the inline path's ABI, and
 * only this slow path reads these.
 */
static __thread struct {
	struct fdr_region *region;
	uint32_t generation;
	uint64_t records;
} missed __attribute__((tls_model("initial-exec")));

__FDR_NO_INSTRUMENT void fdr__forget_missed(void)
{
	missed.region = NULL;
	missed.records = 0;
}

/* Flight-recorder regions only count their drops: no marker there, so
 * that their records stay what they always were. */
__FDR_NO_INSTRUMENT static void note_missed(struct fdr_region *r)
{
	uint32_t gen;

	if (!r->stream)
		return;
	gen = __atomic_load_n(&r->ctl->generation, __ATOMIC_RELAXED);
	if (missed.region != r || missed.generation != gen) {
		missed.region = r;
		missed.generation = gen;
		missed.records = 0;
	}
	missed.records++;
}

/* What the next buffer of r must hold before the record: the marker. */
__FDR_NO_INSTRUMENT static uint64_t marker_room(const struct fdr_region *r)
{
	return missed.records && missed.region == r ? FDR_DROP_MARKER_ROOM : 0;
}

/* A buffer was just taken: tell the drops, if they are of its region
 * and generation (those of an older one mean nothing here). */
__FDR_NO_INSTRUMENT static void tell_missed(struct fdr_thread *t)
{
	if (missed.region == t->region && missed.generation == t->generation)
		fdr__write_drop_marker(t, missed.records);
	missed.records = 0;
}

__FDR_NO_INSTRUMENT static bool take_buffer(struct fdr_thread *t, struct fdr_region *r,
				    uint32_t cpu)
{
	if (!t->tid) {
		t->tid = (int32_t)syscall(SYS_gettid);
		fdr__owner_thread_setup();
	}
	if (fdr__buffer_acquire(t, r, cpu) < 0)
		return false;
	if (!t->key_set)
		fdr__arm_thread_exit(t);
	if (missed.records)
		tell_missed(t);
	return true;
}

__FDR_NO_INSTRUMENT bool fdr__thread_ready(struct fdr_thread *t, uint64_t need)
{
	struct fdr_region *r;
	uint32_t cpu;

	/* Recording stopped or moved on: give the buffer back if still ours. */
	if (t->desc && !fdr__can_write(t, 0))
		fdr__buffer_release(t);
	if (t->desc && fdr__can_write(t, need))
		return true;
	r = t->desc ? t->region : fdr__region_for_writing();
	if (!r)
		return false;
	cpu = fdr__cpu();
	/* Even an empty buffer cannot take it: drop, do not tear. */
	if (FDR_BUFFER_PREAMBLE_SIZE + marker_room(r) + need >
	    fdr__usable_size(r)) {
		fdr__count_drop(r, cpu);
		return false;
	}
	if (t->desc)
		fdr__buffer_release(t);	/* full: take the next one */
	if (!take_buffer(t, r, cpu)) {
		fdr__count_drop(r, cpu);
		note_missed(r);
		return false;
	}
	return true;
}
