// SPDX-License-Identifier: MIT
/*
 * perfetto_sched.c - the scheduling file (<log>.sched) as the ftrace
 * events Perfetto builds its thread states and wakeup arrows from
 * (perfetto.h): each record becomes what the kernel's tracepoint would
 * have written.
 *
 *   SWITCH_OUT  sched_switch, prev = the thread, prev_state its state
 *               (R preempted, S, D, T for the rest), next = the thread
 *               that got the CPU (0: idle, or one the owner may not see);
 *   SWITCH_IN   sched_switch, next = the thread, prev = the one that left
 *               (its state unknown, written as R), unless that one is
 *               traced too: then its own records say its state, and the
 *               switch is its SWITCH_OUT at the same TSC and CPU (written
 *               once), or, when that is not in the file, a switch from 0;
 *   WAKEUP      sched_waking of the thread, by the waker (the event's pid;
 *               0 when an interrupt woke it, flagged as hardirq/softirq
 *               in common_flags as the kernel does).
 *
 * A bundle holds one CPU's events; records go in each thread's order,
 * a bundle per run on one CPU.  Perfetto sorts all events of a file by
 * time before it parses them (trace processor's TraceSorter: a file is
 * one read, sorted whole), so the order across threads does not matter.
 * The state before a thread's first record has no ftrace spelling; the
 * Chrome writer's tracks draw it, Perfetto does not.
 */
#include "perfetto.h"
#include "convert.h"

#define BUNDLE_EVENTS 256	/* keeps a packet small; any number is valid */

/* include/linux/trace_events.h, enum trace_flag_type */
#define TRACE_FLAG_HARDIRQ 0x08
#define TRACE_FLAG_SOFTIRQ 0x10

struct bundle {
	struct out_buffer *o;
	struct pb_msg *m;
	const struct fdr_sched *sched;
	const struct fdr_thread_table *threads;
	uint64_t freq;
	int cpu;		/* of the open bundle, -1: none */
	unsigned events;
};

static void bundle_close(struct bundle *b)
{
	if (b->cpu < 0)
		return;
	pb_end(b->m);
	perfetto_emit(b->o, b->m);
	b->cpu = -1;
	b->events = 0;
}

/* Begin an FtraceEvent of cpu at tsc by (common) pid, in the right bundle. */
static void event_begin(struct bundle *b, unsigned cpu, uint64_t tsc, int32_t pid)
{
	if (b->cpu != (int)cpu || b->events == BUNDLE_EVENTS) {
		bundle_close(b);
		pb_begin(b->m, TP_FTRACE_EVENTS);
		pb_varint(b->m, FB_CPU, cpu);
		b->cpu = (int)cpu;
	}
	b->events++;
	pb_begin(b->m, FB_EVENT);
	pb_varint(b->m, FE_TIMESTAMP, perfetto_ns(tsc, b->freq));
	pb_int(b->m, FE_PID, pid);
}

static void comm(struct bundle *b, uint32_t field, int32_t tid)
{
	const struct fdr_thread_info *ti = fdr_thread_table_find(b->threads, tid);

	if (tid && ti && thread_name_known(ti->comm))
		pb_string(b->m, field, ti->comm);
}

/* Linux's TASK_* bits of prev_state, which every Perfetto decodes alike. */
static int64_t prev_state(uint8_t state)
{
	switch (state) {
	case FDR_SCHED_RUNNABLE: return 0;	/* R */
	case FDR_SCHED_SLEEPING: return 1;	/* S, TASK_INTERRUPTIBLE */
	case FDR_SCHED_DISK: return 2;		/* D, TASK_UNINTERRUPTIBLE */
	default: return 4;			/* T, __TASK_STOPPED */
	}
}

static void sched_switch(struct bundle *b, const struct fdr_sched_record *r,
			 int32_t prev, int32_t next, int64_t state)
{
	event_begin(b, r->cpu, r->tsc, prev);
	pb_begin(b->m, FE_SCHED_SWITCH);
	comm(b, SS_PREV_COMM, prev);
	pb_int(b->m, SS_PREV_PID, prev);
	pb_int(b->m, SS_PREV_STATE, state);
	comm(b, SS_NEXT_COMM, next);
	pb_int(b->m, SS_NEXT_PID, next);
	pb_end(b->m);
	pb_end(b->m);
}

static void sched_waking(struct bundle *b, const struct fdr_sched_record *r)
{
	bool by_task = r->state == FDR_SCHED_BY_TASK;

	event_begin(b, r->cpu, r->tsc, by_task ? r->other_tid : 0);
	if (!by_task)
		pb_varint(b->m, FE_COMMON_FLAGS, r->state == FDR_SCHED_BY_HARDIRQ ?
			  TRACE_FLAG_HARDIRQ : TRACE_FLAG_SOFTIRQ);
	pb_begin(b->m, FE_SCHED_WAKING);
	comm(b, SW_COMM, r->tid);
	pb_int(b->m, SW_PID, r->tid);
	pb_int(b->m, SW_SUCCESS, 1);
	pb_int(b->m, SW_TARGET_CPU, r->cpu);
	pb_end(b->m);
	pb_end(b->m);
}

/* Does traced thread tid have a SWITCH_OUT at tsc on cpu (the other half of a switch)? */
static bool switched_out(const struct fdr_sched *s, int32_t tid, uint64_t tsc, uint16_t cpu)
{
	const struct fdr_sched_thread *th = fdr_sched_thread_find(s, tid);
	size_t lo = 0, hi = th->count;

	while (lo < hi) {	/* the first record at or after tsc */
		size_t mid = lo + (hi - lo) / 2;

		if (th->records[mid].tsc < tsc)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (; lo < th->count && th->records[lo].tsc == tsc; lo++)
		if (th->records[lo].type == FDR_SCHED_SWITCH_OUT && th->records[lo].cpu == cpu)
			return true;
	return false;
}

static void record(struct bundle *b, const struct fdr_sched_record *r)
{
	switch (r->type) {
	case FDR_SCHED_SWITCH_OUT:
		sched_switch(b, r, r->tid, r->other_tid, prev_state(r->state));
		break;
	case FDR_SCHED_SWITCH_IN:
		if (!r->other_tid || !fdr_sched_thread_find(b->sched, r->other_tid))
			sched_switch(b, r, r->other_tid, r->tid, 0);
		else if (!switched_out(b->sched, r->other_tid, r->tsc, r->cpu))
			sched_switch(b, r, 0, r->tid, 0);
		break;
	case FDR_SCHED_WAKEUP:
		sched_waking(b, r);
		break;
	}
}

void perfetto_sched(struct out_buffer *o, struct pb_msg *m, const struct fdr_sched *sched,
		    const struct fdr_thread_table *threads, uint64_t freq)
{
	struct bundle b = { o, m, sched, threads, freq, -1, 0 };

	for (size_t i = 0; i < fdr_sched_thread_count(sched) && !o->error; i++) {
		const struct fdr_sched_thread *th = fdr_sched_thread_at(sched, i);

		for (size_t j = 0; j < th->count; j++)
			record(&b, &th->records[j]);
		bundle_close(&b);
	}
}
