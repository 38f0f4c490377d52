// SPDX-License-Identifier: MIT
/*
 * backend.c - which region a run records into.  /dev/fdr when it is
 * there: a named session of its own (record.PID.RANDOM), so concurrent
 * runs never mix and a crash finalizes only this run's session; with an
 * fdr.ko older than sessions, the default session if it is free
 * (UNINITIALIZED: our INIT wins it).  Else a private embedded region
 * whose name only this run knows.  Either way no other run finalizes or
 * flushes ours, and we say why the device was not used when it exists.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/random.h>
#include <unistd.h>

#include "record.h"

/*
 * Buffers per CPU without -n.  A stream in a private (embedded) region
 * gets many: its writers take the lowest free buffer (libfdr's
 * buffer.c), so the few the flusher keeps handing back are all a steady
 * run touches, and the rest - memory that is never allocated until
 * written - absorb a flusher kept off its CPU by other work for tens of
 * ms (bench/app: 0 drops in 9 runs at load 4.6 against 2 of 9 with 64).
 * The device allocates every buffer in the kernel up front: 64 there.
 */
#define DEFAULT_BUFFERS		64u
#define STREAM_PRIVATE_BUFFERS	512u

static struct fdr_init init_of(const struct record_opts *o)
{
	return (struct fdr_init){
		.size = sizeof(struct fdr_init),
		.flags = (o->no_sched ? FDR_INIT_NO_SCHED : 0) |
			 (o->stream ? FDR_INIT_STREAM : 0),
		.buffer_size = o->buffer_size,
		.buffers_per_cpu = o->buffers_per_cpu ? o->buffers_per_cpu : DEFAULT_BUFFERS,
		/* one run, one log: the first trigger ends it, no holdoff */
		.trigger_ns = o->trigger_ns,
		.trigger_fid = o->trigger_fid,
	};
}

static uint32_t run_random(void)
{
	uint32_t rnd = 0;

	if (getrandom(&rnd, sizeof(rnd), 0) != sizeof(rnd))
		rnd = (uint32_t)getpid() * 2654435761u;
	return rnd;
}

/*
 * This run's own session on the open device, and PROG's target.  0: made
 * (or the module has no sessions: the default one it is); else a message
 * was printed.
 */
static int own_session(struct backend *b)
{
	char name[FDR_SESSION_NAME_MAX];
	int r;

	snprintf(name, sizeof(name), "record.%d.%08x", (int)getpid(),
		 run_random());
	r = fdr_ctl_session_create(b->ctl, name, 0, 0);
	if (r == -ENOTTY) {
		snprintf(b->target, sizeof(b->target), "%s", FDR_DEFAULT_DEVICE);
		return 0;
	}
	if (r) {
		fprintf(stderr, "fdr record: %s; recording into a private embedded region\n",
			fdr_ctl_strerror(b->ctl, "session create", r));
		return r;
	}
	b->session = true;
	snprintf(b->target, sizeof(b->target), "%s:%s", FDR_DEFAULT_DEVICE, name);
	return 0;
}

/*
 * INIT.  When no scheduling slot is left for this run (16 machine-wide,
 * max_user_sched per user), fdr.ko makes the region without the view and
 * says so in STATUS (FDR_CTL_SCHED_REFUSED); one before that flag
 * refused with ENOSPC, and we init again without it.  Either way the run
 * records, and says what it lacks.
 */
static int init_session(struct backend *b, const struct fdr_init *cfg)
{
	struct fdr_status st = { .size = sizeof(st) };
	struct fdr_init plain = *cfg;
	int r = fdr_ctl_init(b->ctl, cfg);

	if (r == -ENOSPC && !(cfg->flags & FDR_INIT_NO_SCHED)) {
		plain.flags |= FDR_INIT_NO_SCHED;
		r = fdr_ctl_init(b->ctl, &plain);
		if (!r)
			st.flags = FDR_CTL_SCHED_REFUSED;
	} else if (!r && fdr_ctl_status(b->ctl, &st)) {
		st.flags = 0;
	}
	if (!r && (st.flags & FDR_CTL_SCHED_REFUSED))
		fprintf(stderr, "fdr record: %s\n",
			fdr_ctl_strerror(b->ctl, "sched", -ENOSPC));
	return r;
}

/* Why INIT on the device failed (own_session() speaks for itself). */
static void say_init_refused(struct backend *b, int r)
{
	struct fdr_status st = { .size = sizeof(st) };

	if (r == -EBUSY && !b->session && fdr_ctl_status(b->ctl, &st) == 0)
		fprintf(stderr, "fdr record: %s is in use by another session (%s); recording "
			"into a private embedded region%s\n", FDR_DEFAULT_DEVICE,
			fdr_state_name(st.state), st.state == FDR_STATE_FINALIZED ?
			" (if nobody will flush it: fdrctl reset)" : "");
	else
		fprintf(stderr, "fdr record: %s; recording into a private embedded region\n",
			fdr_ctl_strerror(b->ctl, "init", r));
}

/* 1: the device is ours; 0: use an embedded region (after saying why). */
static int try_device(struct backend *b, const struct fdr_init *cfg)
{
	int r;

	if (access(FDR_DEFAULT_DEVICE, F_OK))
		return 0;
	r = fdr_ctl_open(&b->ctl, FDR_DEFAULT_DEVICE);
	if (r) {
		fprintf(stderr, "fdr record: %s: %s; recording into a private embedded "
			"region\n", FDR_DEFAULT_DEVICE, strerror(-r));
	} else if (own_session(b) == 0) {
		r = init_session(b, cfg);
		if (!r)
			return 1;
		say_init_refused(b, r);
	}
	fdr_ctl_close(b->ctl);
	b->ctl = NULL;
	b->session = false;
	return 0;
}

static int open_embedded(struct backend *b, const struct fdr_init *cfg)
{
	int r;

	snprintf(b->target, sizeof(b->target), FDR_EMBEDDED_PREFIX "record.%d.%08x",
		 (int)getpid(), run_random());
	b->embedded = true;
	r = fdr_ctl_open(&b->ctl, b->target);
	if (!r)
		r = fdr_ctl_init(b->ctl, cfg);
	if (!r)
		return 0;
	fprintf(stderr, "fdr record: %s\n", fdr_ctl_strerror(b->ctl, "init", r));
	fdr__backend_close(b);
	return FDR_EXIT_FAILED;
}

int fdr__backend_open(struct backend *b, const struct record_opts *o)
{
	struct fdr_init cfg = init_of(o);

	memset(b, 0, sizeof(*b));
	if (try_device(b, &cfg))
		return 0;
	if (o->stream && !o->buffers_per_cpu)
		cfg.buffers_per_cpu = STREAM_PRIVATE_BUFFERS;
	return open_embedded(b, &cfg);
}

int fdr__backend_finalize(struct backend *b, struct fdr_status *st)
{
	int r = fdr_ctl_finalize(b->ctl);

	st->size = sizeof(*st);
	/* EBUSY: the kernel finalized already, for PROG's crash */
	if (r && r != -EBUSY) {
		fprintf(stderr, "fdr record: %s\n", fdr_ctl_strerror(b->ctl, "finalize", r));
		return FDR_EXIT_FAILED;
	}
	r = fdr_ctl_status(b->ctl, st);
	if (r || st->state != FDR_STATE_FINALIZED) {
		fprintf(stderr, "fdr record: %s\n", r ? fdr_ctl_strerror(b->ctl, "status", r)
			: "the region was not finalized: someone else reset it");
		return FDR_EXIT_FAILED;
	}
	return 0;
}

void fdr__backend_close(struct backend *b)
{
	if (!b->ctl)
		return;
	if (b->embedded) {
		fdr_ctl_close(b->ctl);
		fdr_ctl_destroy_embedded(b->target);
	} else {
		/* leave the device free for the next session */
		if (fdr_ctl_reset(b->ctl) == -EBUSY && fdr_ctl_finalize(b->ctl) == 0)
			fdr_ctl_reset(b->ctl);
		fdr_ctl_close(b->ctl);
	}
	b->ctl = NULL;
}
