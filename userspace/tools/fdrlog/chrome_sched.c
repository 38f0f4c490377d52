// SPDX-License-Identifier: MIT
/*
 * chrome_sched.c - thread-state tracks and wakeup arrows in the Chrome
 * trace (chrome_sched.h).  A state lasts from the record that began it to
 * the next record that changes it; before a thread's first record the
 * state format.md implies it had, from the log's first TSC (nothing where
 * it is unknown); after its last, to the log's last TSC.  Flows are
 * Chrome's "s"/"f" pair: the start on the waker's state track if it has
 * one, else on its call track, the end ("bp":"e", bound to the slice
 * enclosing it) on the woken thread's state track.
 */
#include <stdio.h>
#include "chrome_sched.h"

static const char *state_name(uint8_t state)
{
	static const char *const names[] = { "Running", "Runnable", "Sleeping", "D",
					     "Stopped" };

	return state < sizeof(names) / sizeof(names[0]) ? names[state] : NULL;
}

/* The pid the thread's calls are drawn under: the side table's, else the kernel's. */
static int64_t pid_of(const struct chrome_sched *cs, int32_t tid, int32_t pid)
{
	const struct fdr_thread_info *ti = fdr_thread_table_find(cs->threads, tid);

	return ti ? ti->pid : pid;
}

void chrome_sched_names(struct out_buffer *o, const struct chrome_sched *cs, bool first)
{
	char name[32];

	for (size_t i = 0; i < fdr_sched_thread_count(cs->sched); i++) {
		const struct fdr_sched_thread *th = fdr_sched_thread_at(cs->sched, i);

		snprintf(name, sizeof(name), "%d state", th->tid);
		chrome_metadata(o, "thread_name", pid_of(cs, th->tid, th->pid),
				CHROME_STATE_TID_BASE + th->tid, name, first && i == 0);
	}
}

static uint64_t ns_of(const struct chrome_sched *cs, uint64_t tsc)
{
	return (uint64_t)(cs->freq ? (unsigned __int128)tsc * 1000000000u / cs->freq
			  : (unsigned __int128)tsc * 1000u);
}

/* One complete event [a, b) named by state, on th's state track. */
static void put_span(struct out_buffer *o, const struct chrome_sched *cs,
		     const struct fdr_sched_thread *th, uint64_t a, uint64_t b, uint8_t state)
{
	const char *name = state_name(state);
	uint64_t dur = ns_of(cs, b) - ns_of(cs, a);

	if (!name || b <= a)
		return;
	out_str(o, ",\n{\"name\":\"");
	out_str(o, name);
	out_str(o, "\",\"cat\":\"sched\",\"ph\":\"X\",\"ts\":");
	chrome_timestamp(o, a, cs->freq);
	out_printf(o, ",\"dur\":%llu.%03llu,\"pid\":%lld,\"tid\":%lld}",
		   (unsigned long long)(dur / 1000), (unsigned long long)(dur % 1000),
		   (long long)pid_of(cs, th->tid, th->pid),
		   (long long)(CHROME_STATE_TID_BASE + th->tid));
}

/* The thread's states, runs of one state drawn as one event. */
static void put_states(struct out_buffer *o, const struct chrome_sched *cs,
		       const struct fdr_sched_thread *th)
{
	uint64_t start = th->records[0].tsc;
	uint8_t state = th->state_before;

	if (cs->lo < start)
		put_span(o, cs, th, cs->lo, start, state);
	state = th->state_after[0];
	for (size_t i = 1; i < th->count; i++) {
		if (th->state_after[i] == state)
			continue;
		put_span(o, cs, th, start, th->records[i].tsc, state);
		start = th->records[i].tsc;
		state = th->state_after[i];
	}
	put_span(o, cs, th, start, cs->hi > start ? cs->hi : start, state);
}

static void put_flow_end(struct out_buffer *o, const struct chrome_sched *cs, const char *ph,
			 uint64_t id, uint64_t tsc, int64_t pid, int64_t tid)
{
	out_str(o, ",\n{\"name\":\"wakeup\",\"cat\":\"sched\",\"ph\":\"");
	out_str(o, ph);
	out_printf(o, "\",\"id\":%llu,\"ts\":", (unsigned long long)id);
	chrome_timestamp(o, tsc, cs->freq);
	out_printf(o, ",\"pid\":%lld,\"tid\":%lld}", (long long)pid, (long long)tid);
}

static void put_wakeups(struct out_buffer *o, const struct chrome_sched *cs,
			const struct fdr_sched_thread *th, uint64_t *id)
{
	for (size_t i = 0; i < th->count; i++) {
		const struct fdr_sched_record *w = &th->records[i];
		int64_t waker_tid = w->other_tid;

		if (w->type != FDR_SCHED_WAKEUP || w->state != FDR_SCHED_BY_TASK || !w->other_tid)
			continue;
		if (fdr_sched_thread_find(cs->sched, w->other_tid))
			waker_tid += CHROME_STATE_TID_BASE;
		++*id;
		put_flow_end(o, cs, "s", *id, w->tsc, pid_of(cs, w->other_tid, w->other_pid),
			     waker_tid);
		put_flow_end(o, cs, "f\",\"bp\":\"e", *id, w->tsc, pid_of(cs, th->tid, th->pid),
			     CHROME_STATE_TID_BASE + th->tid);
	}
}

void chrome_sched_events(struct out_buffer *o, const struct chrome_sched *cs)
{
	uint64_t id = 0;

	for (size_t i = 0; i < fdr_sched_thread_count(cs->sched); i++)
		put_states(o, cs, fdr_sched_thread_at(cs->sched, i));
	for (size_t i = 0; i < fdr_sched_thread_count(cs->sched); i++)
		put_wakeups(o, cs, fdr_sched_thread_at(cs->sched, i), &id);
}
