// SPDX-License-Identifier: MIT
/*
 * reinit_test.c - --auto-reset's RESET + INIT (reinit.c) against a fake
 * libfdr control: a module that knows the latency trigger gets the last
 * cycle's trigger, one that does not (E2BIG for the VER1 tail, EINVAL)
 * gets a clear error and never an untriggered region in its place, and a
 * region without a trigger is initialized with the VER0 size any module
 * takes.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include <fdr.h>

#include "msg.h"
#include "reinit.h"
#include "tap.h"

/* The fake module. */
enum kernel { NEW, OLD_E2BIG, OLD_EINVAL };
static enum kernel kernel;
static struct fdr_init inits[8];
static int nr_inits, nr_resets;
static char errors[4096], infos[4096];

int fdr_ctl_reset(struct fdr_ctl *ctl)
{
	(void)ctl;
	nr_resets++;
	return 0;
}

int fdr_ctl_init(struct fdr_ctl *ctl, const struct fdr_init *cfg)
{
	(void)ctl;
	if (nr_inits < 8)
		inits[nr_inits] = *cfg;
	nr_inits++;
	if (kernel == NEW)
		return 0;
	/* an fdr.ko of struct fdr_init VER0 (24 bytes), without NO_SCHED */
	if (cfg->flags & FDR_INIT_NO_SCHED)
		return -EINVAL;
	if (cfg->size > FDR_INIT_SIZE_VER0 &&
	    (cfg->trigger_ns || cfg->trigger_fid || cfg->trigger_holdoff_ms))
		return kernel == OLD_E2BIG ? -E2BIG : -EINVAL;
	return 0;
}

const char *fdr_ctl_strerror(const struct fdr_ctl *ctl, const char *op, int err)
{
	static char buf[128];

	(void)ctl;
	snprintf(buf, sizeof(buf), "cannot %s: %s", op, strerror(-err));
	return buf;
}

static void add(char *to, const char *fmt, va_list ap)
{
	size_t n = strlen(to);

	vsnprintf(to + n, 4096 - n, fmt, ap);
	n = strlen(to);
	if (n < 4095)
		strcpy(to + n, "\n");
}

void msg_error(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	add(errors, fmt, ap);
	va_end(ap);
}

void msg_warn(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	add(errors, fmt, ap);
	va_end(ap);
}

void msg_info(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	add(infos, fmt, ap);
	va_end(ap);
}

void msg_use_syslog(bool on)
{
	(void)on;
}

static int run(enum kernel k, const struct fdr_status *st)
{
	kernel = k;
	nr_inits = nr_resets = 0;
	errors[0] = infos[0] = '\0';
	memset(inits, 0, sizeof(inits));
	return reinit(NULL, st);
}

/* The STATUS of a device region of the last cycle. */
static struct fdr_status last_cycle(uint64_t trigger_ns, int32_t fid, uint32_t holdoff,
				    uint32_t flags)
{
	struct fdr_status st = {
		.size = sizeof(st), .state = FDR_STATE_FINALIZED,
		.flush_state = FDR_FLUSH_FLUSHED, .flags = flags,
		.buffer_size = 65536, .buffers_per_cpu = 16,
		.trigger_ns = trigger_ns, .trigger_fid = fid,
		.trigger_holdoff_ms = holdoff,
	};
	return st;
}

static bool no_untriggered_init(void)
{
	for (int i = 0; i < nr_inits && i < 8; i++)
		if (!inits[i].trigger_ns)
			return false;
	return true;
}

int main(void)
{
	struct fdr_status st;
	int ret;

	st = last_cycle(20000000, 12, 1000, FDR_CTL_SCHED | FDR_CTL_CRASH_FINALIZE);
	ret = run(NEW, &st);
	tap_ok(ret == 0 && nr_resets == 1 && nr_inits == 1 &&
	       inits[0].size == FDR_INIT_SIZE_VER1 && inits[0].trigger_ns == 20000000 &&
	       inits[0].trigger_fid == 12 && inits[0].trigger_holdoff_ms == 1000 &&
	       inits[0].buffer_size == 65536 && inits[0].buffers_per_cpu == 16 &&
	       inits[0].flags == 0,
	       "trigger-aware module: RESET, one INIT (VER1) with the last cycle's trigger, "
	       "geometry and policies (size %u, %llu ns, fid %d, holdoff %u)", inits[0].size,
	       (unsigned long long)inits[0].trigger_ns, inits[0].trigger_fid,
	       inits[0].trigger_holdoff_ms);
	tap_ok(strstr(infos, "region re-initialized: 16 buffers of 65536 bytes per CPU, "
			     "trigger at 20000000 ns (function 12, holdoff 1000 ms)") && !errors[0],
	       "... and says the trigger is re-armed");

	st = last_cycle(0, 0, 0, FDR_CTL_CRASH_FINALIZE);
	ret = run(OLD_E2BIG, &st);
	tap_ok(ret == 0 && nr_inits == 2 && inits[1].size == FDR_INIT_SIZE_VER0 &&
	       !(inits[1].flags & FDR_INIT_NO_SCHED),
	       "no trigger, a module older than the trigger and scheduling: the VER0 size, "
	       "accepted (%d inits, size %u)", nr_inits, inits[nr_inits - 1].size);
	tap_ok(!errors[0] && strstr(infos, "region re-initialized: 16 buffers of 65536 bytes per CPU\n"),
	       "... no error");

	st = last_cycle(5000000, 0, 250, FDR_CTL_SCHED);
	ret = run(OLD_E2BIG, &st);
	tap_ok(ret == -E2BIG && nr_inits == 1 && no_untriggered_init(),
	       "trigger, a module without it (E2BIG): one INIT, with the trigger, none "
	       "without (%d inits, ret %d)", nr_inits, ret);
	tap_ok(strstr(errors, "cannot init: Argument list too long: the region had a latency "
			      "trigger (5000000 ns, function 0, holdoff 250 ms) that this fdr.ko "
			      "does not take (an older module?); the region is left UNINITIALIZED") &&
	       !infos[0],
	       "... a clear error naming the trigger, no \"re-initialized\"");
	if (!strstr(errors, "latency trigger"))
		tap_diag("errors: %s", errors);

	/* It asked for the view and got no slot: it asks again. */
	st = last_cycle(0, 0, 0, FDR_CTL_SCHED_REFUSED | FDR_CTL_CRASH_FINALIZE);
	ret = run(NEW, &st);
	tap_ok(ret == 0 && nr_inits == 1 && !(inits[0].flags & FDR_INIT_NO_SCHED),
	       "a region made without the scheduling view for want of a slot asks for it "
	       "again (flags 0x%x)", inits[0].flags);

	st = last_cycle(5000000, 7, 0, 0);	/* device, no FDR_CTL_SCHED: NO_SCHED first */
	ret = run(OLD_EINVAL, &st);
	tap_ok(ret == -EINVAL && nr_inits == 2 && no_untriggered_init() &&
	       strstr(errors, "latency trigger (5000000 ns, function 7, holdoff 0 ms)"),
	       "trigger, an older module refusing with EINVAL (after the NO_SCHED retry): "
	       "the same error, no untriggered INIT (%d inits)", nr_inits);
	return tap_done();
}
