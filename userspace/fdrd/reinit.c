// SPDX-License-Identifier: MIT
/*
 * reinit.c - --auto-reset: RESET and INIT the region for the next cycle
 * with the last cycle's configuration (reinit.h).
 */
#include <errno.h>

#include <fdr.h>

#include "ctl_retry.h"
#include "msg.h"
#include "reinit.h"

/*
 * The last cycle's policies as INIT flags.  A device region without
 * FDR_CTL_SCHED is either --no-sched or an fdr.ko that knows no
 * scheduling records; the latter refuses FDR_INIT_NO_SCHED (EINVAL), so
 * reinit() asks again without it.  One that asked for the view and found
 * no slot free (FDR_CTL_SCHED_REFUSED) asks again: a slot may be free now.
 */
static uint32_t init_flags_of(const struct fdr_status *st)
{
	uint32_t flags = st->flags & FDR_CTL_CRASH_FINALIZE ? 0 : FDR_INIT_NO_CRASH_FINALIZE;

	if (!(st->flags & (FDR_CTL_SCHED | FDR_CTL_EMBEDDED |
			   FDR_CTL_SCHED_REFUSED)))
		flags |= FDR_INIT_NO_SCHED;
	if (st->flags & FDR_CTL_STREAM)
		flags |= FDR_INIT_STREAM;	/* a stream stays a stream */
	return flags;
}

/*
 * The INIT of the next cycle: the last cycle's geometry, crash and
 * scheduling policy and latency trigger (STATUS VER2; 0 from a kernel
 * older than the trigger, which then gets the VER0 size it knows).
 */
void reinit_config(const struct fdr_status *st, struct fdr_init *cfg)
{
	*cfg = (struct fdr_init){
		.size = sizeof(*cfg),
		.flags = init_flags_of(st),
		.buffer_size = st->buffer_size,
		.buffers_per_cpu = st->buffers_per_cpu,
		.trigger_ns = st->trigger_ns,
		.trigger_fid = st->trigger_fid,
		.trigger_holdoff_ms = st->trigger_holdoff_ms,
	};
	if (!cfg->trigger_ns && !cfg->trigger_fid && !cfg->trigger_holdoff_ms)
		cfg->size = FDR_INIT_SIZE_VER0;
}

/*
 * RESET, then INIT as reinit_config().  Decision: a kernel (fdr.ko replaced
 * between two cycles) that refuses the trigger fields (EINVAL, E2BIG) is
 * not given an untriggered region in their place: the region stays
 * UNINITIALIZED, with an error that says why, and fdrd waits for an init
 * by hand.
 */
int reinit(struct fdr_ctl *ctl, const struct fdr_status *st)
{
	struct fdr_init cfg;
	int ret = CTL_RETRY(fdr_ctl_reset(ctl));

	if (ret) {
		msg_error("%s", fdr_ctl_strerror(ctl, "reset", ret));
		return ret;
	}
	reinit_config(st, &cfg);
	ret = CTL_RETRY(fdr_ctl_init(ctl, &cfg));
	if (ret == -EINVAL && (cfg.flags & FDR_INIT_NO_SCHED)) {
		cfg.flags &= ~FDR_INIT_NO_SCHED;
		ret = CTL_RETRY(fdr_ctl_init(ctl, &cfg));
	}
	if ((ret == -EINVAL || ret == -E2BIG) && cfg.size > FDR_INIT_SIZE_VER0) {
		msg_error("%s: the region had a latency trigger (%llu ns, function %d, "
			  "holdoff %u ms) that this fdr.ko does not take (an older module?); "
			  "the region is left UNINITIALIZED rather than re-armed without "
			  "its trigger: init it by hand (fdrctl init)",
			  fdr_ctl_strerror(ctl, "init", ret),
			  (unsigned long long)cfg.trigger_ns, cfg.trigger_fid,
			  cfg.trigger_holdoff_ms);
		return ret;
	}
	if (ret)
		msg_error("%s", fdr_ctl_strerror(ctl, "init", ret));
	else if (cfg.trigger_ns)
		msg_info("region re-initialized: %u buffers of %llu bytes per CPU, "
			 "trigger at %llu ns (function %d, holdoff %u ms)",
			 cfg.buffers_per_cpu, (unsigned long long)cfg.buffer_size,
			 (unsigned long long)cfg.trigger_ns, cfg.trigger_fid,
			 cfg.trigger_holdoff_ms);
	else
		msg_info("region re-initialized: %u buffers of %llu bytes per CPU",
			 cfg.buffers_per_cpu, (unsigned long long)cfg.buffer_size);
	return ret;
}
