// SPDX-License-Identifier: MIT
/*
 * daemon.c - fdrd's main loop: wait for FINALIZED (fdr_ctl_wait: poll on
 * the device, a futex for embedded regions; never a busy loop), sleep the
 * grace period, flush, optionally reset and re-initialize, repeat.
 *
 * Signals only set a flag.  Waits are bounded (1 s), so the flag is seen
 * within a second whenever the signal arrives; a flush that has started
 * always runs to its end before fdrd exits, or before SIGHUP's new
 * options (systemctl reload) take over, or SIGUSR1's trigger by hand
 * fires (on the region as it is then: re-armed with --auto-reset).
 */
#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <fdr.h>

#include "attach_service.h"
#include "ctl_retry.h"
#include "flush.h"
#include "msg.h"
#include "options.h"
#include "reinit.h"
#include "session.h"
#include "stream.h"

#define WAIT_SLICE_MS 1000
#define RETRY_MAX_MS 60000
#define NO_REGION_POLL_MS 200
#define NO_DEVICE_POLL_MS 1000

static volatile sig_atomic_t stop_signal, reload_signal, trigger_signal;

static void on_stop(int sig)
{
	stop_signal = sig;
}

static void on_reload(int sig)
{
	(void)sig;
	reload_signal = 1;
}

static void on_trigger(int sig)
{
	(void)sig;
	trigger_signal = 1;
}

static void install_signals(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_stop;
	/*
	 * SA_RESTART: system calls inside libfdr (flock) and the writes go
	 * on; the waits are bounded, and sleeps return EINTR regardless.
	 */
	sa.sa_flags = SA_RESTART;
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGINT, &sa, NULL);
	sa.sa_handler = on_reload;
	sigaction(SIGHUP, &sa, NULL);
	sa.sa_handler = on_trigger;
	sigaction(SIGUSR1, &sa, NULL);
	signal(SIGPIPE, SIG_IGN);
}

/* Sleep ms; a signal cuts it short only if interruptible. */
static void sleep_ms(unsigned int ms, int interruptible)
{
	struct timespec until;

	clock_gettime(CLOCK_MONOTONIC, &until);
	until.tv_sec += ms / 1000;
	until.tv_nsec += (long)(ms % 1000) * 1000000;
	if (until.tv_nsec >= 1000000000) {
		until.tv_sec++;
		until.tv_nsec -= 1000000000;
	}
	while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &until, NULL) == EINTR)
		if (interruptible && stop_signal)
			return;
}

/* What fdrd is waiting for, so that it says it once, not every slice. */
enum waiting { WAIT_NOTHING, WAIT_REGION, WAIT_INIT, WAIT_FINALIZE };

struct loop {
	struct fdr_ctl *ctl;
	struct fdrd_options *o;
	int argc;			/* the command line, parsed again on SIGHUP */
	char **argv;
	const char *start_dir;		/* where its relative paths start */
	struct flusher flusher;
	unsigned int retry_ms;
	uint32_t grace_generation;	/* generation whose grace period passed */
	enum waiting waiting;
	struct service svc;		/* --attach-pid, --attach-unit */
	struct timespec next_look;	/* for the service's PID */
	unsigned int look_ms;
	int done, status;
};

/*
 * Say what fdrd waits for when that changes: a user who starts fdrd
 * before anything created or initialized the region must not face a
 * silent process.  It keeps waiting (also with --once): `fdr record`
 * and scripts start fdrd first and create the region after.
 */
static void say_waiting(struct loop *lp, enum waiting w)
{
	if (w == lp->waiting)
		return;
	if (w == WAIT_REGION)
		msg_info("%s; waiting for it to appear", fdr_ctl_strerror(lp->ctl, "status", -ENOENT));
	else if (w == WAIT_INIT && lp->waiting != WAIT_NOTHING)
		msg_info("the region is UNINITIALIZED; waiting for an init (fdrctl init)");
	else if (w == WAIT_INIT)
		msg_info("the region is UNINITIALIZED; waiting for an init (fdrctl init), then a finalize");
	else if (w == WAIT_FINALIZE && lp->waiting == WAIT_REGION)
		msg_info("the region exists now; waiting for a finalize");
	lp->waiting = w;
}

/* A finalized, unflushed region: grace period (once), flush, next step. */
static void handle_finalized(struct loop *lp, const struct fdr_status *st)
{
	enum flush_outcome out;

	if (lp->grace_generation != st->generation) {
		/* the grace period is spent walking the released buffers */
		struct timespec t0, t1;
		unsigned int spent;

		clock_gettime(CLOCK_MONOTONIC, &t0);
		flush_precheck(&lp->flusher, st);
		clock_gettime(CLOCK_MONOTONIC, &t1);
		spent = (unsigned int)((t1.tv_sec - t0.tv_sec) * 1000 +
				       (t1.tv_nsec - t0.tv_nsec) / 1000000);
		if (spent < lp->o->grace_ms)
			sleep_ms(lp->o->grace_ms - spent, 0);
		lp->grace_generation = st->generation;
	}
	out = flush_region(&lp->flusher, st);
	if (out == FLUSH_FAILED) {
		if (lp->o->once) {
			lp->done = 1;
			lp->status = 1;
			return;
		}
		msg_info("the buffers are kept; retrying in %u ms", lp->retry_ms);
		sleep_ms(lp->retry_ms, 1);
		lp->retry_ms = lp->retry_ms * 2 > RETRY_MAX_MS ? RETRY_MAX_MS
							       : lp->retry_ms * 2;
		return;
	}
	if (out == FLUSH_NOT_OURS) {
		fdr_ctl_wait(lp->ctl, st->state, FDR_FLUSH_NOT_FLUSHING, WAIT_SLICE_MS);
		return;
	}
	lp->retry_ms = lp->o->retry_ms;
	service_names(&lp->svc, lp->o->output_dir);	/* next to the log */
	if (lp->o->auto_reset)
		reinit(lp->ctl, st);
	if (lp->o->once) {
		lp->done = 1;
		/* larger than --max-bytes: nothing written, an error */
		lp->status = out == FLUSH_SKIPPED;
	}
}

static void trigger_by_hand(struct loop *lp);

/*
 * The stream loop's look at the signals, between two passes: SIGUSR1 is
 * the trigger by hand of any other time, which ends the stream with its
 * finalize; SIGTERM ends the stream now.
 */
static bool stream_keep_going(void *ctx)
{
	if (trigger_signal)
		trigger_by_hand(ctx);
	return !stop_signal;
}

/* A stream region waiting for its flusher: stream it, until it ends. */
static void handle_stream(struct loop *lp, const struct fdr_status *st)
{
	struct stream_hooks h = { .keep_going = stream_keep_going, .ctx = lp };
	enum flush_outcome out = stream_region(&lp->flusher, st, &h);

	if (out == FLUSH_NOT_OURS) {
		fdr_ctl_wait(lp->ctl, st->state, FDR_FLUSH_NOT_FLUSHING, WAIT_SLICE_MS);
		return;
	}
	if (out == FLUSH_FAILED) {
		msg_info("the stream stopped; retrying in %u ms", lp->retry_ms);
		sleep_ms(lp->retry_ms, 1);
		lp->retry_ms = lp->retry_ms * 2 > RETRY_MAX_MS ? RETRY_MAX_MS
							       : lp->retry_ms * 2;
		return;
	}
	lp->retry_ms = lp->o->retry_ms;
	service_names(&lp->svc, lp->o->output_dir);	/* next to the log */
	if (out == FLUSH_STOPPED)
		return;
	lp->grace_generation = st->generation;	/* its grace period is spent */
	if (lp->o->auto_reset)
		reinit(lp->ctl, st);
	if (lp->o->once) {
		lp->done = 1;
		lp->status = 0;
	}
}

/* One look at the region and one step; returns when something was done. */
static void step(struct loop *lp)
{
	struct fdr_status st = { .size = sizeof(st) };
	int ret = CTL_RETRY(fdr_ctl_status(lp->ctl, &st));

	if (ret == -ENOENT) {
		/* an embedded region nobody has created yet */
		say_waiting(lp, WAIT_REGION);
		sleep_ms(NO_REGION_POLL_MS, 1);
		return;
	}
	if (ret) {
		msg_error("%s", fdr_ctl_strerror(lp->ctl, "status", ret));
		lp->done = 1;
		lp->status = 1;
		return;
	}
	if (st.state == FDR_STATE_FINALIZED && st.flush_state == FDR_FLUSH_NOT_FLUSHING) {
		handle_finalized(lp, &st);
		return;
	}
	if (st.state == FDR_STATE_INITIALIZED && (st.flags & FDR_CTL_STREAM) &&
	    st.flush_state == FDR_FLUSH_NOT_FLUSHING) {
		handle_stream(lp, &st);
		return;
	}
	if (st.state == FDR_STATE_FINALIZED && st.flush_state == FDR_FLUSH_FLUSHED &&
	    lp->o->auto_reset) {
		reinit(lp->ctl, &st);
		return;
	}
	say_waiting(lp, st.state == FDR_STATE_UNINITIALIZED ? WAIT_INIT : WAIT_FINALIZE);
	ret = fdr_ctl_wait(lp->ctl, st.state, st.flush_state, WAIT_SLICE_MS);
	if (ret && ret != -ETIMEDOUT && ret != -EINTR && ret != -ENOENT) {
		msg_error("%s", fdr_ctl_strerror(lp->ctl, "wait", ret));
		sleep_ms(NO_REGION_POLL_MS, 1);
	}
}

static bool same_target(const char *a, const char *b)
{
	return a == b || (a && b && !strcmp(a, b));
}

/*
 * SIGHUP: the command line and the options file again, used from the
 * next step on.  The open target stays: moving fdrd to another region
 * takes a restart.  Bad options (said on stderr) keep the old ones.
 */
static void reload(struct loop *lp)
{
	struct fdrd_options n;
	enum options_result r;

	reload_signal = 0;
	/* daemon() moved fdrd to /; the command line's paths start here */
	if (chdir(lp->start_dir)) {
		msg_error("reload: cannot go back to %s, where fdrd started (%s); keeping "
			  "the options in use", lp->start_dir, strerror(errno));
		return;
	}
	r = options_parse(lp->argc, lp->argv, &n);
	if (!lp->o->foreground && chdir("/"))
		msg_error("reload: chdir /: %s", strerror(errno));
	if (r != OPTIONS_RUN) {
		msg_error("reload: the options are not valid (see above); keeping the ones in use");
		return;
	}
	if (!same_target(n.target, lp->o->target) ||
	    !same_target(n.session, lp->o->session) || n.attach_pid != lp->o->attach_pid ||
	    !same_target(n.attach_unit, lp->o->attach_unit)) {
		msg_error("reload: --session, --target, --attach-pid or --attach-unit: a "
			  "target cannot change while fdrd runs (restart it); keeping the "
			  "options in use");
		options_free(&n);
		return;
	}
	n.foreground = lp->o->foreground;	/* fdrd is daemonized or not already */
	n.use_syslog = lp->o->use_syslog;
	options_free(lp->o);
	*lp->o = n;
	lp->retry_ms = n.retry_ms;
	msg_info("reloaded%s%s: logs into %s as %s, grace %u ms%s%s", n.config ? " " : "",
		 n.config ? n.config : "", n.output_dir, n.pattern, n.grace_ms,
		 n.auto_reset ? ", auto-reset" : "", n.write.fsync ? ", fsync" : "");
}

/*
 * SIGUSR1: a trigger by hand (FDR_TRIGGER_BY_HAND, never held off) on
 * fdrd's region, as `fdrctl trigger` does: a supervisor that saw
 * something go wrong gets the recording of it.  The flush follows as for
 * any finalize.
 */
static void trigger_by_hand(struct loop *lp)
{
	int ret;

	trigger_signal = 0;
	msg_info("SIGUSR1: firing a trigger by hand");
	ret = CTL_RETRY(fdr_ctl_trigger(lp->ctl, NULL));
	if (ret == -EBUSY)
		msg_error("SIGUSR1: no trigger fired: the region is not recording "
			  "(%s)", fdr_ctl_strerror(lp->ctl, "trigger", ret));
	else if (ret)	/* ENOTTY: libfdr says the module predates the trigger */
		msg_error("SIGUSR1: no trigger fired: %s",
			  fdr_ctl_strerror(lp->ctl, "trigger", ret));
	else
		msg_info("SIGUSR1: trigger fired; the region is finalized");
}

static bool time_to_look(struct loop *lp)
{
	struct timespec now;

	clock_gettime(CLOCK_MONOTONIC, &now);
	if (now.tv_sec < lp->next_look.tv_sec ||
	    (now.tv_sec == lp->next_look.tv_sec && now.tv_nsec < lp->next_look.tv_nsec))
		return false;
	lp->next_look = now;
	lp->next_look.tv_sec += lp->look_ms / 1000;
	lp->next_look.tv_nsec += (long)(lp->look_ms % 1000) * 1000000;
	if (lp->next_look.tv_nsec >= 1000000000) {
		lp->next_look.tv_sec++;
		lp->next_look.tv_nsec -= 1000000000;
	}
	return true;
}

/*
 * The service, between two steps (never during a flush): attach when the
 * region records and a process is there to attach to (a unit's main PID
 * is looked up at most once a second, backing off to a minute while it
 * fails); at its exit, finalize the region so that what it recorded last
 * is flushed.  A --attach-pid that cannot be attached to ends fdrd.
 */
static void tend_service(struct loop *lp)
{
	struct fdr_status st = { .size = sizeof(st) };
	pid_t pid;

	if (!lp->o->attach_pid && !lp->o->attach_unit)
		return;
	if (service_attached(&lp->svc)) {
		if (service_exited(&lp->svc) && !CTL_RETRY(fdr_ctl_status(lp->ctl, &st)) &&
		    st.state == FDR_STATE_INITIALIZED)
			CTL_RETRY(fdr_ctl_finalize(lp->ctl));
		return;
	}
	if (!time_to_look(lp) || CTL_RETRY(fdr_ctl_status(lp->ctl, &st)) ||
	    st.state != FDR_STATE_INITIALIZED)
		return;
	pid = service_pid(&lp->svc, lp->o);
	if (pid > 0 && !service_attach(&lp->svc, pid, lp->o)) {
		lp->look_ms = 1000;
		return;
	}
	if (pid != 0 && lp->o->attach_pid) {
		lp->done = 1;
		lp->status = 1;
	}
	if (pid != 0)
		lp->look_ms = lp->look_ms * 2 > RETRY_MAX_MS ? RETRY_MAX_MS : lp->look_ms * 2;
}

/*
 * Stopping: detach (the service is left as it was; its "stop" finalizes
 * the region) and flush what it recorded, with no next cycle.
 */
static void leave_service(struct loop *lp)
{
	struct fdr_status st = { .size = sizeof(st) };
	bool reset = lp->o->auto_reset;

	if (!service_attached(&lp->svc))
		return;
	service_detach(&lp->svc);
	if (CTL_RETRY(fdr_ctl_status(lp->ctl, &st)) || st.state != FDR_STATE_FINALIZED ||
	    st.flush_state != FDR_FLUSH_NOT_FLUSHING)
		return;
	lp->o->auto_reset = false;
	lp->o->once = true;	/* one try: a failed flush is not retried */
	handle_finalized(lp, &st);
	lp->o->auto_reset = reset;
}

static int serve(struct fdr_ctl *ctl, struct fdrd_options *o, int argc, char **argv,
		 const char *start_dir)
{
	struct loop lp = {
		.ctl = ctl, .o = o, .argc = argc, .argv = argv, .start_dir = start_dir,
		.flusher = { .ctl = ctl, .opts = o },
		.retry_ms = o->retry_ms,
		.look_ms = 1000,
	};

	service_init(&lp.svc);
	while (!lp.done && !stop_signal) {
		if (reload_signal)
			reload(&lp);
		if (trigger_signal)
			trigger_by_hand(&lp);
		tend_service(&lp);
		if (!lp.done)
			step(&lp);
	}
	leave_service(&lp);
	log_precheck_free(&lp.flusher.precheck);
	if (stop_signal)
		msg_info("stopping on signal %d", (int)stop_signal);
	return lp.status;
}

/* The device is absent: fdr.ko not loaded (yet), or being reloaded. */
static bool device_missing(int ret)
{
	return ret == -ENOENT || ret == -ENODEV || ret == -ENXIO;
}

/*
 * Open the target.  With --wait-device a missing device is waited for,
 * said once: at boot the service may start before the module is loaded,
 * and an administrator may load it later (an embedded region is waited
 * for by the loop itself, since opening one needs nothing to exist).
 */
static int open_target(struct fdr_ctl **ctl, const struct fdrd_options *o,
		       const char **op)
{
	bool said = false;
	int ret;

	for (;;) {
		*op = "open";
		ret = o->session ? fdrd_open_session(ctl, o, op) :
				   fdr_ctl_open(ctl, o->target);
		if (!ret || !o->wait_device || !device_missing(ret) || stop_signal)
			return ret;
		if (!said)
			msg_info("%s; waiting for it to appear", fdr_ctl_strerror(*ctl, *op, ret));
		said = true;
		fdr_ctl_close(*ctl);
		*ctl = NULL;
		sleep_ms(NO_DEVICE_POLL_MS, 1);
	}
}

int main(int argc, char **argv)
{
	char start_dir[PATH_MAX];
	struct fdrd_options o;
	struct fdr_ctl *ctl;
	const char *op;
	int ret;

	switch (options_parse(argc, argv, &o)) {
	case OPTIONS_EXIT_OK: return 0;
	case OPTIONS_EXIT_USAGE: return 2;
	case OPTIONS_RUN: break;
	}
	if (!getcwd(start_dir, sizeof(start_dir))) {
		fprintf(stderr, "fdrd: the current directory: %s\n", strerror(errno));
		return 1;
	}
	/* before daemonizing and syslog: the user sees why on the terminal */
	if (o.attach_pid && service_check(o.attach_pid)) {
		options_free(&o);
		return 1;
	}
	msg_use_syslog(o.use_syslog);
	install_signals();
	ret = open_target(&ctl, &o, &op);
	if (ret && stop_signal) {
		fdr_ctl_close(ctl);
		return 0;
	}
	if (ret) {
		/* before daemonizing: the user sees why on the terminal */
		fprintf(stderr, "fdrd: %s\n", fdr_ctl_strerror(ctl, op, ret));
		fdr_ctl_close(ctl);
		return 1;
	}
	if (!o.foreground && daemon(0, 0)) {
		fprintf(stderr, "fdrd: cannot daemonize: %s\n", strerror(errno));
		return 1;
	}
	if (o.session)
		msg_info("flushing session %s into %s", o.session, o.output_dir);
	else
		msg_info("flushing %s into %s",
			 o.target ? o.target : "the default target", o.output_dir);
	ret = serve(ctl, &o, argc, argv, start_dir);
	fdr_ctl_close(ctl);
	options_free(&o);
	return ret;
}
