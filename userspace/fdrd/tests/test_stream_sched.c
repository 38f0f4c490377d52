// SPDX-License-Identifier: MIT
/*
 * test_stream_sched.c - the stream thread's scheduling (stream_sched.c):
 * real-time where the process may, never inherited by a child, given
 * up past the busy budget of a window and taken again in the next one,
 * and the thread's own policy back at the end (also for a user whose
 * right is RLIMIT_RTPRIO alone).  Times are given,
 * not measured: nothing here depends on how the machine schedules.
 * Without the right to SCHED_FIFO (no CAP_SYS_NICE, RLIMIT_RTPRIO 0)
 * the real-time checks are skipped and the thread must stay SCHED_OTHER.
 */
#include <sched.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include "stream_sched.h"
#include "tap.h"

#define MS 1000000ull

static int policy(void)
{
	return sched_getscheduler(0) & ~SCHED_RESET_ON_FORK;
}

/* A child's policy, as fork gives it: its exit status. */
static int child_policy(void)
{
	int st;
	pid_t pid = fork();

	if (pid == 0)
		_exit(policy());
	if (pid < 0 || waitpid(pid, &st, 0) != pid || !WIFEXITED(st))
		return -1;
	return WEXITSTATUS(st);
}

static void rt_checks(struct stream_sched *s, uint64_t t0)
{
	tap_ok(policy() == SCHED_FIFO, "granted: the thread is SCHED_FIFO");
	tap_ok(child_policy() == SCHED_OTHER, "a child it forks is SCHED_OTHER (reset on fork)");
	stream_sched_look(s, true, t0 + 10 * MS);
	tap_ok(policy() == SCHED_FIFO && !s->demoted, "busy 10 ms: still SCHED_FIFO");
	stream_sched_look(s, true, t0 + 60 * MS);
	tap_ok(policy() == SCHED_OTHER && s->demoted && s->demotions == 1,
	       "busy 60 ms without an empty look: SCHED_OTHER (demotions %llu)",
	       (unsigned long long)s->demotions);
	tap_ok(getpriority(PRIO_PROCESS, 0) == s->was_nice,
	       "at the thread's own nice (%d), not 0", s->was_nice);
	stream_sched_look(s, true, t0 + 500 * MS);
	tap_ok(policy() == SCHED_OTHER && s->demotions == 1, "still busy: stays SCHED_OTHER");
	stream_sched_look(s, false, t0 + 501 * MS);
	tap_ok(policy() == SCHED_OTHER && s->demoted,
	       "an empty look in the same 200 ms window: still SCHED_OTHER");
	stream_sched_look(s, false, t0 + 720 * MS);
	tap_ok(policy() == SCHED_FIFO && !s->demoted, "an empty look in the next window: SCHED_FIFO again");
	stream_sched_look(s, true, t0 + 760 * MS);
	tap_ok(policy() == SCHED_FIFO, "the sleep before a look is not busy time (40 ms)");
	stream_sched_look(s, false, t0 + 805 * MS);	/* busy 45 ms, then one empty look */
	stream_sched_look(s, true, t0 + 810 * MS);	/* after a sleep */
	stream_sched_look(s, true, t0 + 820 * MS);	/* 10 ms more */
	tap_ok(policy() == SCHED_OTHER && s->demotions == 2,
	       "45 ms busy, an empty look, 10 ms busy: past 50 ms in the window, SCHED_OTHER");
}

/* A thread someone made SCHED_FIFO 5 (chrt) keeps it: not lowered to 1,
 * not capped, not reset at the end. */
static void already_rt(uint64_t t0)
{
	struct sched_param p5 = { .sched_priority = 5 }, p0 = { 0 }, got;
	struct stream_sched s;

	if (sched_setscheduler(0, SCHED_FIFO, &p5)) {
		for (int i = 0; i < 3; i++)
			tap_skip("no right to SCHED_FIFO", "started real-time: check %d", i);
		return;
	}
	stream_sched_prompt(&s, t0);
	tap_ok(policy() == SCHED_FIFO && !sched_getparam(0, &got) && got.sched_priority == 5,
	       "started SCHED_FIFO 5: left at 5 (%s)", stream_sched_name(&s));
	stream_sched_look(&s, true, t0 + 60 * MS);
	tap_ok(policy() == SCHED_FIFO && !s.demotions, "and not capped: its owner's choice");
	stream_sched_normal(&s);
	tap_ok(policy() == SCHED_FIFO && !sched_getparam(0, &got) && got.sched_priority == 5,
	       "and still SCHED_FIFO 5 after the stream");
	sched_setscheduler(0, SCHED_OTHER, &p0);
}

/*
 * Real-time by RLIMIT_RTPRIO alone (an unprivileged user, `ulimit -r 1`):
 * the way back must not need CAP_SYS_NICE (clearing reset-on-fork does).
 * In a child that gives up root; its exit status: 0 back to
 * SCHED_OTHER, 1 never real-time, 2 still real-time after the stream,
 * 3 the set-up refused (no CAP_SYS_RESOURCE, as in some containers).
 */
static int rlimit_rt_child(uint64_t t0)
{
	struct rlimit one = { 1, 1 };
	struct stream_sched s;

	if (setrlimit(RLIMIT_RTPRIO, &one) || setgid(65534) || setuid(65534))
		return 3;
	stream_sched_prompt(&s, t0);
	if (s.prio != STREAM_PRIO_RT || policy() != SCHED_FIFO)
		return 1;
	stream_sched_normal(&s);
	return policy() == SCHED_OTHER ? 0 : 2;
}

static void rlimit_rt(uint64_t t0)
{
	int st = -1;
	pid_t pid;

	if (getuid() != 0) {
		tap_skip("not root: cannot set up an RLIMIT_RTPRIO-only user", "RLIMIT_RTPRIO back");
		return;
	}
	pid = fork();
	if (pid == 0)
		_exit(rlimit_rt_child(t0));
	if (pid < 0 || waitpid(pid, &st, 0) != pid || !WIFEXITED(st))
		st = -1;
	else
		st = WEXITSTATUS(st);
	if (st == 1 || st == 3)
		tap_skip(st == 1 ? "RLIMIT_RTPRIO 1 granted no SCHED_FIFO here"
				 : "cannot raise RLIMIT_RTPRIO and give up root here", "RLIMIT_RTPRIO back");
	else
		tap_ok(st == 0, "real-time by RLIMIT_RTPRIO alone, no CAP_SYS_NICE: SCHED_OTHER after "
		       "the stream (status %d)", st);
}

int main(void)
{
	struct stream_sched s;
	enum stream_prio granted;
	int nice0;
	uint64_t t0 = 1000 * MS;

	setpriority(PRIO_PROCESS, 0, 3);	/* a thread not at nice 0: it stays so */
	nice0 = getpriority(PRIO_PROCESS, 0);

	tap_ok(policy() == SCHED_OTHER, "the test starts SCHED_OTHER");
	stream_sched_prompt(&s, t0);
	granted = s.prio;
	tap_diag("granted: %s", stream_sched_name(&s));
	if (s.prio == STREAM_PRIO_RT) {
		rt_checks(&s, t0);
	} else {
		tap_ok(policy() == SCHED_OTHER, "not granted real-time: stays SCHED_OTHER");
		tap_ok(getpriority(PRIO_PROCESS, 0) <= nice0, "at its nice (%d) or below",
		       getpriority(PRIO_PROCESS, 0));
		stream_sched_look(&s, true, t0 + 60 * MS);
		tap_ok(policy() == SCHED_OTHER && !s.demotions, "no real-time: the busy cap does nothing");
		for (int i = 0; i < 5; i++)
			tap_skip("no right to SCHED_FIFO (CAP_SYS_NICE, RLIMIT_RTPRIO)", "real-time check %d", i);
	}
	stream_sched_normal(&s);
	rlimit_rt(t0);
	tap_ok(policy() == SCHED_OTHER && getpriority(PRIO_PROCESS, 0) == nice0,
	       "after the stream: the thread's own policy and nice (%d)", nice0);
	tap_ok(s.restored && s.prio == granted, "what the stream had is still told (%s)",
	       stream_sched_name(&s));
	stream_sched_look(&s, false, t0 + 600 * MS);
	tap_ok(policy() == SCHED_OTHER, "a look after the end does not raise it again");
	already_rt(t0);
	return tap_done();
}
