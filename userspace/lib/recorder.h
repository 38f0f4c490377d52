/* SPDX-License-Identifier: MIT */
/*
 * recorder.h - the record path's shared state: the attached region, the
 * per-thread writer, and the inline helpers every record kind uses.
 * Internal to libfdr.
 */
#ifndef FDR_RECORDER_H
#define FDR_RECORDER_H

#include <stdint.h>
#include <string.h>
#include <linux/fdr_log.h>
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
	uint64_t max_event;		/* largest custom event payload */
};

/* A thread's writer: XRay's FDRController state plus the held buffer. */
struct fdr_thread {
	const struct fdr_control *ctl;	/* &fdr__no_control: no buffer */
	struct fdr_region *region;	/* region of the held buffer */
	struct fdr_buffer_desc *desc;	/* NULL: no buffer */
	uint8_t *buf;
	uint64_t size;			/* buffer_size */
	uint64_t pos;			/* our extents: bytes written */
	uint64_t latest_tsc;		/* TSC of the last record kept */
	uint64_t last_entry_tsc;	/* TSC of the last undoable Enter */
	uint64_t last_wall_us;		/* Walltime of the last preamble */
	uint64_t threshold;		/* region->threshold_ticks */
	uint32_t generation;		/* generation of the held buffer */
	uint32_t cpu;			/* CPU of the last NewCPUId, or
					 * FDR_CPU_NONE: none in this buffer */
	uint32_t undo_enters;		/* XRay's UndoableFunctionEnters */
	uint32_t undo_tails;		/* XRay's UndoableTailExits */
	int32_t tid;			/* 0 until first use */
	uint8_t busy;			/* inside a record: drop re-entry */
	uint8_t key_set;		/* thread-exit destructor armed */
};

/* Exported (not API): fdr_fast.h inlines the fast path into callers. */
#define FDR_FAST_SYM __attribute__((visibility("default")))
extern FDR_FAST_SYM __thread struct fdr_thread fdr__thread
	__attribute__((tls_model("initial-exec")));
extern FDR_FAST_SYM struct fdr_region *fdr__current; /* NULL: not recording */
/* What a thread without a buffer points at: never INITIALIZED, so the
 * fast path needs no NULL test. */
extern FDR_FAST_SYM const struct fdr_control fdr__no_control;
/* No CPU number (any rseq cpu_id or -1 differs from it): the next record
 * writes NewCPUId. */
#define FDR_CPU_NONE	0x7fffffffu
extern pid_t fdr__pid;	/* getpid() is a syscall: cached at attach and fork */

/* ---- time and CPU ---- */

#ifdef FDR_TEST_HOOKS
extern FDR_FAST_SYM uint64_t (*fdr__test_tsc_hook)(void);
/* Called just inside the re-entry guard: where a test plays a signal
 * handler that records in the middle of a record. */
extern FDR_FAST_SYM void (*fdr__test_guarded_hook)(void);
#endif

static inline __attribute__((always_inline, no_instrument_function))
uint64_t fdr__tsc(void)
{
#ifdef FDR_TEST_HOOKS
	if (fdr__test_tsc_hook)
		return fdr__test_tsc_hook();
#endif
	return __builtin_ia32_rdtsc();	/* not <x86intrin.h>'s inline */
}

/* rseq's cpu_id through %fs when glibc registered rseq; see cpu.c. */
/* %fs offset of rseq's cpu_id, else of a -1; 0 before fdr__cpu_setup */
extern FDR_FAST_SYM long fdr__rseq_cpu_offset;
FDR_FAST_SYM uint32_t fdr__cpu_slow(void);

static inline __attribute__((always_inline, no_instrument_function))
uint32_t fdr__cpu(void)
{
	if (__builtin_expect(fdr__rseq_cpu_offset != 0, 1)) {
		int32_t cpu;

		__asm__ volatile("movl %%fs:(%1), %0"
				 : "=r"(cpu)
				 : "r"(fdr__rseq_cpu_offset));
		if (__builtin_expect(cpu >= 0, 1))
			return (uint32_t)cpu;
	}
	return fdr__cpu_slow();
}

/* The fast path's CPU: one TLS load.  fdr__rseq_cpu_offset is rseq's
 * cpu_id, or else a thread variable that holds -1 (see cpu.c), which
 * never matches the thread's CPU: the record takes the general path,
 * which asks fdr__cpu().  Valid once fdr__cpu_setup ran, i.e. whenever a
 * thread holds a buffer. */
static inline __attribute__((always_inline, no_instrument_function))
uint32_t fdr__cpu_fast(void)
{
	uint32_t cpu;

	__asm__ volatile("movl %%fs:(%1), %0"
			 : "=r"(cpu)
			 : "r"(fdr__rseq_cpu_offset));
	return cpu;
}

void fdr__cpu_setup(void);

/* ---- re-entry guard ---- */

/* A signal handler that records while this thread is inside a record
 * sees busy and drops its record; compiler fences keep the record's
 * stores between the two busy stores. */
static inline __attribute__((always_inline, no_instrument_function))
void fdr__guard_enter(struct fdr_thread *t)
{
	t->busy = 1;
	__atomic_signal_fence(__ATOMIC_SEQ_CST);
#ifdef FDR_TEST_HOOKS
	if (fdr__test_guarded_hook)
		fdr__test_guarded_hook();
#endif
}

static inline __attribute__((always_inline, no_instrument_function))
void fdr__guard_leave(struct fdr_thread *t)
{
	__atomic_signal_fence(__ATOMIC_SEQ_CST);
	t->busy = 0;
}

/* ---- record encoding ---- */

static inline __attribute__((always_inline, no_instrument_function))
void fdr__put_function(uint8_t *p, uint32_t kind, int32_t fid, uint32_t delta)
{
	uint32_t w[2] = { FDR_FN_WORD0(kind, (uint32_t)fid), delta };

	memcpy(p, w, sizeof(w));
}

static inline __attribute__((always_inline, no_instrument_function))
void fdr__put_metadata(uint8_t *p, uint32_t kind, const void *payload,
		       size_t n)
{
	uint8_t rec[FDR_METADATA_SIZE] = { FDR_MD_FIRST_BYTE(kind) };

	memcpy(rec + 1, payload, n);
	memcpy(p, rec, sizeof(rec));
}

/* Publish: the bytes before pos are complete (release store). */
static inline __attribute__((always_inline, no_instrument_function))
void fdr__publish(struct fdr_thread *t)
{
	__atomic_store_n(&t->desc->extents, t->pos, __ATOMIC_RELEASE);
}

/*
 * Is the held buffer still ours to write, with room for `need` bytes?
 * One acquire load of the state word per record; everything else is in
 * the thread's own cache lines or read-mostly.
 */
static inline __attribute__((always_inline, no_instrument_function))
bool fdr__can_write(const struct fdr_thread *t, uint64_t need)
{
	const struct fdr_control *c = t->ctl;

	return t->region == __atomic_load_n(&fdr__current, __ATOMIC_RELAXED) &&
	       __atomic_load_n(&c->state, __ATOMIC_ACQUIRE) ==
		       FDR_STATE_INITIALIZED &&
	       c->generation == t->generation && t->pos + need <= t->size;
}

/* ---- slow paths (buffer.c, attach.c, rewind.c, thread_exit.c) ---- */

/* Make sure the thread holds a buffer with room for `need` bytes after a
 * possible preamble.  false: drop this record. */
bool fdr__thread_ready(struct fdr_thread *t, uint64_t need);
void fdr__count_drop(struct fdr_region *r);
int fdr__buffer_acquire(struct fdr_thread *t, struct fdr_region *r,
			uint32_t cpu);
void fdr__buffer_release(struct fdr_thread *t);
void fdr__arm_thread_exit(struct fdr_thread *t);
struct fdr_region *fdr__region_for_writing(void);
bool fdr__rewind(struct fdr_thread *t, uint64_t tsc);

/* Options (options.c). */
struct fdr_options {
	uint64_t threshold_us;
};
void fdr__options_parse(struct fdr_options *o, const char *s);

#endif /* FDR_RECORDER_H */
