// SPDX-License-Identifier: MIT
/*
 * writer.c - the slow path of a record: the thread has no buffer, its
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

FDR_NOINSTR static bool take_buffer(struct fdr_thread *t, struct fdr_region *r)
{
	if (!t->tid) {
		t->tid = (int32_t)syscall(SYS_gettid);
		fdr__owner_thread_setup();
	}
	if (fdr__buffer_acquire(t, r, fdr__cpu()) < 0)
		return false;
	if (!t->key_set)
		fdr__arm_thread_exit(t);
	return true;
}

FDR_NOINSTR bool fdr__thread_ready(struct fdr_thread *t, uint64_t need)
{
	struct fdr_region *r;

	/* Recording stopped or moved on: give the buffer back if still ours. */
	if (t->desc && !fdr__can_write(t, 0))
		fdr__buffer_release(t);
	if (t->desc && fdr__can_write(t, need))
		return true;
	r = t->desc ? t->region : fdr__region_for_writing();
	if (!r)
		return false;
	/* Even an empty buffer cannot take it: drop, do not tear. */
	if (FDR_BUFFER_PREAMBLE_SIZE + need > fdr__usable_size(r)) {
		fdr__count_drop(r);
		return false;
	}
	if (t->desc)
		fdr__buffer_release(t);	/* full: take the next one */
	if (!take_buffer(t, r)) {
		fdr__count_drop(r);
		return false;
	}
	return true;
}
