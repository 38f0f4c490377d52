// SPDX-License-Identifier: MIT
/*
 * record.c - the public record calls: XRay FDR v2 records, written the
 * way compiler-rt's FDRController writes them (Documentation/format.md §2).
 *
 * Per call: rdtsc, a re-entry guard (signal handlers may record too), one
 * state check, the CPU from rseq, the bytes, then one release store of
 * the new extents.  No syscall, lock or atomic read-modify-write.
 */
#include <limits.h>
#include "recorder.h"

#ifdef FDR_TEST_HOOKS
uint64_t (*fdr__test_tsc_hook)(void);
void (*fdr__test_guarded_hook)(void);
/* Function records that took the general path (tests: the inline path
 * must take every one it can when no trigger is armed). */
uint64_t fdr__test_general_calls;
#define COUNT_GENERAL()	(fdr__test_general_calls++)
#else
#define COUNT_GENERAL()	((void)0)
#endif

#define likely(x)	__builtin_expect(!!(x), 1)
#define unlikely(x)	__builtin_expect(!!(x), 0)
#define INLINE		static inline __attribute__((always_inline)) __FDR_NO_INSTRUMENT

/* A record inside a record (a signal handler) is dropped, and counted
 * in the region the thread writes to. */
static __attribute__((noinline)) __FDR_NO_INSTRUMENT void
count_reentry(const struct fdr_thread *t)
{
	fdr__count_drop(t->desc ? t->region :
			__atomic_load_n(&fdr__current, __ATOMIC_RELAXED),
			fdr__cpu());
}

INLINE bool enter_guard(struct fdr_thread *t)
{
	if (unlikely(t->busy)) {
		count_reentry(t);
		return false;
	}
	fdr__guard_enter(t);
	return true;
}

INLINE void leave_guard(struct fdr_thread *t)
{
	fdr__guard_leave(t);
}

/* Room for `need` bytes (worst case, metadata included) in a buffer we
 * may write. */
INLINE bool ready(struct fdr_thread *t, uint64_t need)
{
	if (likely(fdr__can_write(t, need)))
		return true;
	return fdr__thread_ready(t, need);
}

#define NOINLINE static __attribute__((noinline)) __FDR_NO_INSTRUMENT

/*
 * XRay's recordPreamble: NewCPUId for the first record of a buffer or
 * after a migration, TSCWrap when the TSC went backwards or the delta
 * does not fit in 31 bits.  Either makes the next delta 0.
 */
INLINE bool write_preamble(struct fdr_thread *t, uint64_t tsc, uint32_t cpu)
{
	uint8_t p[10];

	if (unlikely(t->cpu != cpu)) {
		uint16_t c16 = (uint16_t)cpu;

		memcpy(p, &c16, 2);
		memcpy(p + 2, &tsc, 8);
		fdr__put_metadata(t->buf + t->pos, FDR_MD_NEW_CPU_ID, p, 10);
	} else if (unlikely(tsc < t->latest_tsc ||
			    tsc - t->latest_tsc > (uint64_t)INT32_MAX)) {
		fdr__put_metadata(t->buf + t->pos, FDR_MD_TSC_WRAP, &tsc, 8);
	} else {
		return false;
	}
	t->pos += FDR_METADATA_SIZE;
	t->cpu = cpu;
	t->latest_tsc = tsc;
	return true;
}

INLINE void put_fn(struct fdr_thread *t, uint32_t kind, int32_t fid,
		   uint64_t tsc)
{
	fdr__put_function(t->buf + t->pos, kind, fid,
			  (uint32_t)(tsc - t->latest_tsc));
	t->pos += FDR_FUNCTION_SIZE;
	t->latest_tsc = tsc;
}

/* A latency trigger is armed for the held buffer (trigger.c); only
 * asked once ready() said a buffer is held. */
INLINE bool trigger_armed(const struct fdr_thread *t)
{
	return unlikely(t->fast_size == 0);
}

/* The general paths: any buffer state, any preamble, rewinding, the
 * latency trigger.  Called inside the re-entry guard. */
NOINLINE void enter_slow(struct fdr_thread *t, int32_t fid)
{
	if (ready(t, FDR_METADATA_SIZE + FDR_FUNCTION_SIZE)) {
		uint64_t tsc = fdr__tsc();

		/* nothing before a new block's preamble can be undone */
		if (write_preamble(t, tsc, fdr__cpu())) {
			t->undo_enters = 0;
			t->undo_tails = 0;
		}
		fdr__undo_note_enter(t, tsc);
		put_fn(t, FDR_FN_ENTER, fid, tsc);
		fdr__publish(t);
		if (trigger_armed(t))
			fdr__trigger_enter(fid, tsc);
	}
}

/* Exit and TailExit: a call shorter than the threshold is erased instead. */
NOINLINE void exit_slow(struct fdr_thread *t, uint32_t kind, int32_t fid)
{
	if (ready(t, FDR_METADATA_SIZE + FDR_FUNCTION_SIZE)) {
		uint64_t tsc = fdr__tsc();
		bool meta = write_preamble(t, tsc, fdr__cpu());
		bool erased = false;

		if (!meta && fdr__undoable(t, tsc)) {
			fdr__rewind(t, tsc);
			erased = true;
		} else {
			fdr__undo_note_exit(t, kind);
			put_fn(t, kind, fid, tsc);
		}
		fdr__publish(t);
		/* after the publish: the log holds the slow call's Exit */
		if (trigger_armed(t))
			fdr__trigger_exit(t, fid, tsc, erased);
	}
}

/*
 * The public calls: the inline fast path of <fdr_inline.h>, else a tail call
 * to the general path inside the re-entry guard (so the fast path needs
 * no stack frame).
 */
FDR_API __attribute__((noinline)) void fdr__enter_general(int32_t fid)
{
	struct fdr_thread *t = &fdr__thread;

	if (!enter_guard(t))
		return;
	COUNT_GENERAL();
	enter_slow(t, fid);
	leave_guard(t);
}

FDR_API __attribute__((noinline)) void fdr__exit_general(uint32_t kind,
							  int32_t fid)
{
	struct fdr_thread *t = &fdr__thread;

	if (!enter_guard(t))
		return;
	COUNT_GENERAL();
	exit_slow(t, kind, fid);
	leave_guard(t);
}

FDR_API void fdr_enter(int32_t fid)
{
	if (!fdr__fast_fn(FDR_FN_ENTER, fid))
		fdr__enter_general(fid);
}

INLINE void record_exit(uint32_t kind, int32_t fid)
{
	if (!fdr__fast_fn(kind, fid))
		fdr__exit_general(kind, fid);
}

FDR_API void fdr_exit(int32_t fid)
{
	record_exit(FDR_FN_EXIT, fid);
}

FDR_API void fdr_tail_exit(int32_t fid)
{
	record_exit(FDR_FN_TAIL_EXIT, fid);
}

/*
 * EnterArg + one CallArgument per value (a plain Enter when n is 0);
 * calls with arguments are never rewound: what they carry is the point
 * of recording them.  n is at most FDR_ENTER_ARGS_MAX.
 */
FDR_API void fdr_enter_args(int32_t fid, const uint64_t *args, unsigned n)
{
	struct fdr_thread *t = &fdr__thread;

	if (n > FDR_ENTER_ARGS_MAX || !enter_guard(t))
		return;
	if (ready(t, (1 + n) * FDR_METADATA_SIZE + FDR_FUNCTION_SIZE)) {
		uint64_t tsc = fdr__tsc();

		write_preamble(t, tsc, fdr__cpu());
		t->last_entry_tsc = 0;
		t->undo_enters = 0;
		t->undo_tails = 0;
		put_fn(t, n ? FDR_FN_ENTER_ARG : FDR_FN_ENTER, fid, tsc);
		for (unsigned i = 0; i < n; i++) {
			fdr__put_metadata(t->buf + t->pos, FDR_MD_CALL_ARGUMENT, &args[i], 8);
			t->pos += FDR_METADATA_SIZE;
		}
		fdr__publish(t);
		if (trigger_armed(t))
			fdr__trigger_enter(fid, tsc);
	}
	leave_guard(t);
}

FDR_API void fdr_enter_arg(int32_t fid, uint64_t arg)
{
	fdr_enter_args(fid, &arg, 1);
}

/*
 * v2 CustomEventMarker: i32 size, u64 absolute TSC, then the payload.  A
 * v2 reader does not move its base TSC on a custom event, so neither do
 * we: the next delta stays relative to the last function record.  Room
 * for 2 * FDR_METADATA_SIZE + len checked by the caller.
 */
INLINE void put_custom(struct fdr_thread *t, const void *data, size_t len)
{
	uint64_t tsc = fdr__tsc();
	int32_t size = (int32_t)len;
	uint8_t p[12];

	write_preamble(t, tsc, fdr__cpu());
	memcpy(p, &size, 4);
	memcpy(p + 4, &tsc, 8);
	fdr__put_metadata(t->buf + t->pos, FDR_MD_CUSTOM_EVENT, p, 12);
	memcpy(t->buf + t->pos + FDR_METADATA_SIZE, data, len);
	t->pos += FDR_METADATA_SIZE + len;
	t->undo_enters = 0;
	t->undo_tails = 0;
	fdr__publish(t);
}

FDR_API void fdr_custom_event(const void *data, size_t len)
{
	struct fdr_thread *t = &fdr__thread;

	if (len == 0 || !data || !enter_guard(t))
		return;
	if (len > (size_t)INT32_MAX - 2 * FDR_METADATA_SIZE)
		fdr__count_drop(__atomic_load_n(&fdr__current, __ATOMIC_RELAXED),
				fdr__cpu());
	else if (ready(t, 2 * FDR_METADATA_SIZE + len))
		put_custom(t, data, len);
	leave_guard(t);
}

/* Inside the guard, in a fresh buffer with FDR_DROP_MARKER_ROOM bytes
 * reserved by fdr__thread_ready. */
__FDR_NO_INSTRUMENT void fdr__write_drop_marker(struct fdr_thread *t, uint64_t records)
{
	struct fdr_drop_event ev = { .records = records };

	memcpy(ev.magic, FDR_DROP_EVENT_MAGIC, sizeof(ev.magic));
	put_custom(t, &ev, sizeof(ev));
}
