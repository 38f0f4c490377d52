/* SPDX-License-Identifier: MIT */
/*
 * recorder.h - the record path's shared state: the attached region and
 * the helpers of the general path.  The per-thread writer and the fast
 * path are in the public <fdr_inline.h>.  Internal to libfdr.
 */
#ifndef FDR_RECORDER_H
#define FDR_RECORDER_H

#include <stdint.h>
#include <string.h>
#include <linux/fdr_log.h>
#include <fdr_inline.h>	/* the per-thread writer and the inline fast path */
#include "internal.h"

/* One mapping of one region.  Never unmapped while the process runs:
 * another thread may be between its state check and its write. */
struct fdr_region {
	struct fdr_control *ctl;
	uint8_t *base;
	size_t len;
	/* Geometry as validated at map time: writers index with these, never
	 * with what another process may have scribbled into line 0 since. */
	struct fdr_cpu_ring *rings;
	struct fdr_buffer_desc *descs;
	uint8_t *buffers;
	uint64_t buffer_size;
	uint32_t nr_cpus;
	uint32_t buffers_per_cpu;
	uint64_t threshold_ticks;	/* func_duration_threshold in TSC ticks */
	uint64_t tsc_hz;		/* ticks per second of the threshold and
					 * the trigger (0: unknown, no trigger) */
	bool embedded;			/* the trigger is the embedded transition,
					 * else FDR_IOC_TRIGGER on fdr__trigger_fd */
	bool stream;			/* FDR_CTL_STREAM, read once at map time:
					 * take FREE buffers only (buffer.c) */
	uint64_t max_event;		/* largest custom event payload */
	uint64_t note_size;		/* owner note at each buffer's end */
};

/* owner_pid for buffers of fdr__current (fdr__ctl_owner_pid()), cached
 * at each map and fork: on the device not always getpid() */
extern pid_t fdr__pid;

/* ---- time and CPU ---- */

/* %fs offset of rseq's cpu_id when glibc registered rseq, else of a
 * thread variable holding -1; 0 before fdr__cpu_setup.  See cpu.c. */
extern long fdr__rseq_cpu_offset;
uint32_t fdr__cpu_slow(void);

static inline __attribute__((always_inline)) __FDR_NO_INSTRUMENT
uint32_t fdr__cpu(void)
{
	if (__builtin_expect(fdr__rseq_cpu_offset != 0, 1)) {
		int32_t cpu = (int32_t)fdr__fs_u32(fdr__rseq_cpu_offset);

		if (__builtin_expect(cpu >= 0, 1))
			return (uint32_t)cpu;
	}
	return fdr__cpu_slow();
}

void fdr__cpu_setup(void);

/* ---- record encoding ---- */

/* fdr__put_metadata: <fdr_inline.h>, whose fast paths write CallArguments. */

/* Publish everything written so far (<fdr_inline.h>'s release store). */
static inline __attribute__((always_inline)) __FDR_NO_INSTRUMENT
void fdr__publish(struct fdr_thread *t)
{
	fdr__publish_at(t, t->pos);
}

/* ---- slow paths (buffer.c, attach.c, rewind.c, thread_exit.c) ---- */

/* Make sure the thread holds a buffer with room for `need` bytes after a
 * possible preamble.  false: drop this record. */
bool fdr__thread_ready(struct fdr_thread *t, uint64_t need);
/* One record dropped by a writer on this CPU (its ring's counter). */
void fdr__count_drop(struct fdr_region *r, uint32_t cpu);
/* A forked child starts with no drops to tell (thread_ready.c). */
void fdr__forget_missed(void);
int fdr__buffer_acquire(struct fdr_thread *t, struct fdr_region *r,
			uint32_t cpu);
void fdr__buffer_release(struct fdr_thread *t);
void fdr__arm_thread_exit(struct fdr_thread *t);
struct fdr_region *fdr__region_for_writing(void);
bool fdr__rewind(struct fdr_thread *t, uint64_t tsc);

/*
 * The drop marker (<linux/fdr_log.h>, record.c): NewCPUId, then a v2
 * CustomEventMarker whose payload is struct fdr_drop_event.  Written
 * first into a fresh buffer (after the preamble) by a writer that lost
 * records of a stream region for want of a free buffer.
 */
#define FDR_DROP_MARKER_ROOM	(2 * FDR_METADATA_SIZE + FDR_DROP_EVENT_SIZE)
void fdr__write_drop_marker(struct fdr_thread *t, uint64_t records);

/* ---- the latency trigger (trigger.c) ---- */

/* The device file the process attached with (-1: none, or embedded):
 * what a writer's trigger ioctl goes to (attach.c). */
extern int fdr__trigger_fd;

/* A buffer of r was just taken: read its trigger (sets t->fast_size). */
void fdr__trigger_take(struct fdr_thread *t, struct fdr_region *r);
/* With a trigger armed (t->fast_size == 0 while a buffer is held): an
 * Enter was recorded at tsc; an Exit/TailExit was recorded and published
 * (erased: the threshold erased the call instead). */
void fdr__trigger_enter(int32_t fid, uint64_t tsc);
void fdr__trigger_exit(struct fdr_thread *t, int32_t fid, uint64_t tsc,
		       bool erased);
/* One FDR_IOC_TRIGGER, or the embedded transition (attach.c). */
int fdr__trigger_send(struct fdr_region *r, int32_t fid, uint64_t duration_ns,
		      int32_t tid);

/* The owner note at the end of each buffer (owner_note.c). */
void fdr__owner_process_setup(void);
void fdr__owner_thread_setup(void);
uint64_t fdr__owner_note_size(uint64_t buffer_size);
void fdr__owner_note_write(const struct fdr_thread *t,
			   const struct fdr_region *r, uint64_t seq);

/* Bytes of a buffer that records may use: all but the owner note. */
static inline __attribute__((always_inline)) __FDR_NO_INSTRUMENT
uint64_t fdr__usable_size(const struct fdr_region *r)
{
	return r->buffer_size - r->note_size;
}

/* Options (options.c). */
struct fdr_options {
	uint64_t threshold_us;
};
void fdr__options_parse(struct fdr_options *o, const char *s);

#endif /* FDR_RECORDER_H */
