/* SPDX-License-Identifier: MIT */
/*
 * fdr_inline.h - libfdr's hot record calls as inline functions.
 *
 *   fdr_inline_enter(fid), fdr_inline_exit(fid), fdr_inline_tail_exit(fid)
 *
 * record exactly what fdr_enter, fdr_exit and fdr_tail_exit record (same
 * bytes, same threshold rewinding, same re-entry rule): the common case
 * (a held buffer with room, the same CPU, a delta that fits, no rewind)
 * runs inline, without a call, and so does the erasing of a call shorter
 * than the threshold; anything else calls the library.  So does every
 * call while the region has a latency trigger (fdrctl init
 * --trigger-duration): the writer's fast_size is 0 then, so that the
 * library sees each Enter and Exit; without a trigger fast_size is the
 * buffer's size and the inline path is unchanged.
 *
 * The inline code reads libfdr's per-thread writer, so this header and the
 * library must come from the same libfdr.  The writer's layout version is
 * in the name of its symbol: a program built against another layout fails
 * to link instead of writing through the wrong offsets.
 *
 * Everything named fdr__* below is libfdr's internals, exported for these
 * inline functions only: not API, never to be called or written directly.
 */
#ifndef FDR_INLINE_H
#define FDR_INLINE_H

#include <stdbool.h>
#include <stdint.h>
#include <string.h>
#include <linux/fdr.h>
#include <linux/fdr_log.h>
#include <fdr.h>

#ifdef __cplusplus
extern "C" {
#endif

#define FDR__INLINE	static inline __attribute__((always_inline)) __FDR_NO_INSTRUMENT
#define FDR__EXPORTED	__attribute__((visibility("default")))

struct fdr_region;

/* A thread's writer: XRay's FDRController state plus the held buffer. */
struct fdr_thread {
	const struct fdr_control *ctl;	/* &fdr__no_control: no buffer */
	struct fdr_region *region;	/* region of the held buffer */
	struct fdr_buffer_desc *desc;	/* NULL: no buffer */
	uint8_t *buf;
	uint64_t size;			/* bytes records may use: buffer_size
					 * less the owner note at its end */
	uint64_t fast_size;		/* what the inline path compares with:
					 * size, or 0 when the region has a
					 * latency trigger (every record then
					 * takes the library's general path) */
	uint64_t pos;			/* our extents: bytes written */
	uint64_t latest_tsc;		/* TSC of the last record kept */
	uint64_t last_entry_tsc;	/* TSC of the last undoable Enter */
	uint64_t last_wall_us;		/* Walltime of the last preamble */
	uint64_t threshold;		/* func_duration_threshold in ticks */
	long cpu_offset;		/* %fs offset of rseq's cpu_id, else
					 * of a thread variable holding -1 */
	uint32_t generation;		/* generation of the held buffer */
	uint32_t cpu;			/* CPU of the last NewCPUId, or
					 * FDR__CPU_NONE: none in this buffer */
	uint32_t undo_enters;		/* XRay's UndoableFunctionEnters */
	uint32_t undo_tails;		/* XRay's UndoableTailExits */
	int32_t tid;			/* 0 until first use */
	uint8_t busy;			/* inside a record: drop re-entry */
	uint8_t key_set;		/* thread-exit destructor armed */
};

/* Bump with any change to struct fdr_thread (see the symbol below). */
#define FDR__THREAD_SYMBOL	"fdr__thread_layout_2"

extern FDR__EXPORTED __thread struct fdr_thread fdr__thread
	__asm__(FDR__THREAD_SYMBOL) __attribute__((tls_model("initial-exec")));
extern FDR__EXPORTED struct fdr_region *fdr__current;	/* NULL: not recording */
/* What a thread without a buffer points at: never INITIALIZED, so the
 * inline path needs no NULL test. */
extern FDR__EXPORTED const struct fdr_control fdr__no_control;

/* No CPU number (no rseq cpu_id, nor -1, equals it): the next record of
 * the buffer writes NewCPUId. */
#define FDR__CPU_NONE	0x7fffffffu

#ifdef FDR_TEST_HOOKS	/* libfdr's own tests: an injectable clock */
extern FDR__EXPORTED uint64_t (*fdr__test_tsc_hook)(void);
/* Called just inside the re-entry guard: where a test plays a signal
 * handler that records in the middle of a record. */
extern FDR__EXPORTED void (*fdr__test_guarded_hook)(void);
#endif

FDR__INLINE uint64_t fdr__tsc(void)
{
#ifdef FDR_TEST_HOOKS
	if (fdr__test_tsc_hook)
		return fdr__test_tsc_hook();
#endif
	return __builtin_ia32_rdtsc();	/* not <x86intrin.h>'s: never instrumented */
}

/* The CPU in one TLS load.  Without rseq it reads -1, which never
 * matches the thread's CPU: the record takes the general path, which
 * finds the CPU another way.  Valid whenever the thread holds a buffer. */
FDR__INLINE uint32_t fdr__fs_u32(long offset)
{
	uint32_t v;

	__asm__ volatile("movl %%fs:(%1), %0" : "=r"(v) : "r"(offset));
	return v;
}

FDR__INLINE uint32_t fdr__cpu_fast(const struct fdr_thread *t)
{
	return fdr__fs_u32(t->cpu_offset);
}

/* A signal handler that records while this thread is inside a record
 * sees busy and drops its record; compiler fences keep the record's
 * stores between the two busy stores. */
FDR__INLINE void fdr__guard_enter(struct fdr_thread *t)
{
	t->busy = 1;
	__atomic_signal_fence(__ATOMIC_SEQ_CST);
#ifdef FDR_TEST_HOOKS
	if (fdr__test_guarded_hook)
		fdr__test_guarded_hook();
#endif
}

FDR__INLINE void fdr__guard_leave(struct fdr_thread *t)
{
	__atomic_signal_fence(__ATOMIC_SEQ_CST);
	t->busy = 0;
}

FDR__INLINE void fdr__put_function(uint8_t *p, uint32_t kind, int32_t fid,
				   uint32_t delta)
{
	uint32_t w[2] = { FDR_FN_WORD0(kind, (uint32_t)fid), delta };

	memcpy(p, w, sizeof(w));
}

FDR__INLINE void fdr__put_metadata(uint8_t *p, uint32_t kind, const void *payload,
				   size_t n)
{
	uint8_t rec[FDR_METADATA_SIZE] = { FDR_MD_FIRST_BYTE(kind) };

	memcpy(rec + 1, payload, n);
	memcpy(p, rec, sizeof(rec));
}

/*
 * Is the held buffer still ours to write, with room for `need` bytes
 * after pos (t->pos, loaded once by the caller) below limit (t->size for
 * the general path, t->fast_size for the inline one)?  One acquire load
 * of the state word per record; everything else is in the thread's own
 * cache lines or read-mostly.
 */
FDR__INLINE bool fdr__can_write_below(const struct fdr_thread *t,
				      uint64_t pos, uint64_t need,
				      uint64_t limit)
{
	const struct fdr_control *c = t->ctl;

	return t->region == __atomic_load_n(&fdr__current, __ATOMIC_RELAXED) &&
	       __atomic_load_n(&c->state, __ATOMIC_ACQUIRE) ==
		       FDR_STATE_INITIALIZED &&
	       c->generation == t->generation && pos + need <= limit;
}

/* The inline path's test: never true while a latency trigger is armed
 * (fast_size 0), so that the library sees every call then. */
FDR__INLINE bool fdr__can_write_at(const struct fdr_thread *t, uint64_t pos,
				   uint64_t need)
{
	return fdr__can_write_below(t, pos, need, t->fast_size);
}

/* The general path's test: the whole usable buffer. */
FDR__INLINE bool fdr__can_write(const struct fdr_thread *t, uint64_t need)
{
	return fdr__can_write_below(t, t->pos, need, t->size);
}

/* Same CPU (never so for a buffer's first record: its cpu is
 * FDR__CPU_NONE) and a delta that fits; an unsigned delta also catches a
 * TSC that went backwards. */
FDR__INLINE bool fdr__no_preamble(const struct fdr_thread *t, uint64_t tsc,
				  uint32_t cpu)
{
	return cpu == t->cpu && tsc - t->latest_tsc <= (uint64_t)INT32_MAX;
}

/* Publish: the bytes before pos are complete (one release store). */
FDR__INLINE void fdr__publish_at(struct fdr_thread *t, uint64_t pos)
{
	__atomic_store_n(&t->desc->extents, pos, __ATOMIC_RELEASE);
}

/* pos: t->pos, passed in so that it is loaded once (the record's store
 * may alias *t as far as the compiler knows). */
FDR__INLINE void fdr__append_fn(struct fdr_thread *t, uint64_t pos,
				uint32_t kind, int32_t fid, uint64_t tsc)
{
	fdr__put_function(t->buf + pos, kind, fid,
			  (uint32_t)(tsc - t->latest_tsc));
	pos += FDR_FUNCTION_SIZE;
	t->pos = pos;
	t->latest_tsc = tsc;
	fdr__publish_at(t, pos);
}

/*
 * XRay's undo counters, one rule for the inline and the general paths.
 * An Enter is undoable until its Exit; an Exit within the threshold of
 * the last undoable Enter erases it (fdr__undoable).  A kept TailExit
 * after undoable Enters lengthens the tail-call chain rewind.c may walk
 * back; any other kept Exit ends both.
 */
FDR__INLINE void fdr__undo_note_enter(struct fdr_thread *t, uint64_t tsc)
{
	t->undo_enters++;
	t->last_entry_tsc = tsc;
}

FDR__INLINE bool fdr__undoable(const struct fdr_thread *t, uint64_t tsc)
{
	return t->undo_enters && tsc - t->last_entry_tsc < t->threshold;
}

FDR__INLINE void fdr__undo_note_exit(struct fdr_thread *t, uint32_t kind)
{
	t->undo_tails = kind == FDR_FN_TAIL_EXIT && t->undo_enters ?
				t->undo_tails + 1 : 0;
	t->undo_enters = 0;
}

/*
 * Erase the Enter of a call shorter than the threshold: the record before
 * pos is the last undoable Enter (undo_enters > 0).  true: undoable
 * Enters remain; false: none, and the caller (rewind.c) may go on over a
 * tail-call chain.  The caller publishes the new extents.
 */
FDR__INLINE bool fdr__erase_enter(struct fdr_thread *t, uint64_t pos)
{
	uint32_t delta;

	pos -= FDR_FUNCTION_SIZE;
	memcpy(&delta, t->buf + pos + 4, sizeof(delta));
	t->pos = pos;
	t->latest_tsc -= delta;
	if (--t->undo_enters != 0) {
		/* The previous record is the previous undoable Enter. */
		t->last_entry_tsc -= delta;
		return true;
	}
	t->last_entry_tsc = 0;
	return false;
}

/*
 * One function record in the common case.  true: done; false: nothing
 * was written, take the general path - also when this thread is already
 * inside a record (e.g. in a signal handler): the library drops that
 * record and counts it, off this path.
 *
 * The TSC is read before the re-entry guard, as compiler-rt's FDR
 * handlers do, so that rdtsc's latency overlaps the checks.  A signal
 * handler that records between the rdtsc and the guard leaves
 * latest_tsc ahead of our TSC; the unsigned delta then does not fit and
 * the general path reads the TSC again.
 */
/*
 * What every inline record begins with: not inside a record already, the
 * buffer ours with room for need bytes at *pos (t->pos), no preamble due
 * at *tsc.  true: inside the re-entry guard; false: outside it, nothing to
 * write here.
 */
FDR__INLINE bool fdr__fast_begin(struct fdr_thread *t, uint64_t need, uint64_t *tsc,
				 uint64_t *pos)
{
	*tsc = fdr__tsc();
	if (__builtin_expect(t->busy, 0))
		return false;
	fdr__guard_enter(t);
	*pos = t->pos;
	if (__builtin_expect(!fdr__can_write_at(t, *pos, need) ||
			     !fdr__no_preamble(t, *tsc, fdr__cpu_fast(t)), 0)) {
		fdr__guard_leave(t);
		return false;
	}
	return true;
}

FDR__INLINE bool fdr__fast_fn(uint32_t kind, int32_t fid)
{
	struct fdr_thread *t = &fdr__thread;
	uint64_t tsc, pos;

	if (!fdr__fast_begin(t, FDR_METADATA_SIZE + FDR_FUNCTION_SIZE, &tsc, &pos))
		return false;
	if (kind == FDR_FN_ENTER) {
		fdr__undo_note_enter(t, tsc);
	} else if (fdr__undoable(t, tsc)) {
		/* A call shorter than the threshold: its Enter is erased here,
		 * with this TSC; the walk back over a tail-call chain is
		 * rewind.c's. */
		if (t->undo_enters == 1 && t->undo_tails) {
			fdr__guard_leave(t);
			return false;
		}
		fdr__erase_enter(t, pos);
		fdr__publish_at(t, t->pos);
		fdr__guard_leave(t);
		return true;
	} else {
		fdr__undo_note_exit(t, kind);
	}
	fdr__append_fn(t, pos, kind, fid, tsc);
	fdr__guard_leave(t);
	return true;
}

/*
 * fdr_enter_args() in the common case (fdr record -A's integer
 * arguments): an EnterArg and n CallArguments (n 0: an Enter), with fdr__fast_fn's
 * checks.  Never undoable, as in the library: the undo counters start
 * over.  false: nothing was written, call fdr_enter_args().
 */
FDR__INLINE bool fdr__fast_enter_args(int32_t fid, const uint64_t *args, unsigned n)
{
	struct fdr_thread *t = &fdr__thread;
	uint64_t tsc, pos;

	if (!fdr__fast_begin(t, (1 + n) * FDR_METADATA_SIZE + FDR_FUNCTION_SIZE, &tsc, &pos))
		return false;
	t->last_entry_tsc = 0;
	t->undo_enters = 0;
	t->undo_tails = 0;
	fdr__put_function(t->buf + pos, n ? FDR_FN_ENTER_ARG : FDR_FN_ENTER, fid,
			  (uint32_t)(tsc - t->latest_tsc));
	pos += FDR_FUNCTION_SIZE;
	for (unsigned i = 0; i < n; i++, pos += FDR_METADATA_SIZE)
		fdr__put_metadata(t->buf + pos, FDR_MD_CALL_ARGUMENT, &args[i], 8);
	t->pos = pos;
	t->latest_tsc = tsc;
	fdr__publish_at(t, pos);
	fdr__guard_leave(t);
	return true;
}

/*
 * The library's general path, what fdr_enter() and fdr_exit() fall back
 * to: straight there, since the inline path just declined (calling
 * fdr_enter() would try it, and read the TSC, once more).
 */
extern FDR__EXPORTED void fdr__enter_general(int32_t fid);
extern FDR__EXPORTED void fdr__exit_general(uint32_t kind, int32_t fid);

FDR__INLINE void fdr_inline_enter(int32_t fid)
{
	if (!fdr__fast_fn(FDR_FN_ENTER, fid))
		fdr__enter_general(fid);
}

FDR__INLINE void fdr_inline_exit(int32_t fid)
{
	if (!fdr__fast_fn(FDR_FN_EXIT, fid))
		fdr__exit_general(FDR_FN_EXIT, fid);
}

FDR__INLINE void fdr_inline_tail_exit(int32_t fid)
{
	if (!fdr__fast_fn(FDR_FN_TAIL_EXIT, fid))
		fdr__exit_general(FDR_FN_TAIL_EXIT, fid);
}

#ifdef __cplusplus
}
#endif

#endif /* FDR_INLINE_H */
