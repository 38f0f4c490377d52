// SPDX-License-Identifier: MIT
/*
 * xray_mode.c - the "fdr" XRay log mode: XRay's callbacks on libfdr.
 *
 * log_init attaches the process to a region, installs the arg1 and
 * custom-event handlers (select_mode already installed the arg0 one) and
 * turns on the mode's own trampolines (xray_sleds.h), which call the same
 * two handlers; log_finalize turns them off and finalizes the region so
 * that fdrd flushes it; flush_log has nothing to do in-process.  XRay holds its mode mutex around these
 * three, so none of them calls __xray_log_* (the handler setters are
 * plain atomic stores and are fine).
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "fdr.h"
#include "fdr_inline.h"
#include <linux/fdr.h>
#include "xray_config.h"
#include "xray_mode.h"
#include "xray_sleds.h"
#include "xray_threshold.h"
#include "xray_xstate.h"

/* The config of the first successful log_init: libfdr attaches once per
 * process, so its target (used again by log_finalize) and threshold stay. */
static struct fdr_xray_config attached_cfg;
static bool attached;

__FDR_NO_INSTRUMENT void fdr__xray_fast_event(int32_t fid, enum fdr_xray_entry_type type)
{
	switch (type) {
	case FDR_XRAY_ENTRY:
	case FDR_XRAY_LOG_ARGS_ENTRY:	/* no arg1 handler: a plain entry */
		fdr_inline_enter(fid);
		break;
	case FDR_XRAY_EXIT:
		fdr_inline_exit(fid);
		break;
	case FDR_XRAY_TAIL:
		fdr_inline_tail_exit(fid);
		break;
	default:	/* events arrive through their own handlers */
		break;
	}
}

__FDR_NO_INSTRUMENT void fdr__xray_fast_arg1(int32_t fid, enum fdr_xray_entry_type type,
				 uint64_t arg)
{
	(void)type;	/* only LOG_ARGS_ENTRY sleds call the arg1 handler */
	fdr_enter_arg(fid, arg);
}

__FDR_NO_INSTRUMENT void fdr__xray_custom_event(void *data, size_t len)
{
	fdr_custom_event(data, len);
}

/* The config as text: init_mode passes a C string with size 0,
 * init_mode_bin a buffer with its size. */
__FDR_NO_INSTRUMENT static size_t config_length(const void *args, size_t args_size)
{
	if (!args)
		return 0;
	return args_size ? args_size : strlen(args);
}

/* A later init cannot move the process to another region or threshold:
 * say so rather than silently keep the first ones. */
__FDR_NO_INSTRUMENT static void note_unchanged(const struct fdr_xray_config *cfg)
{
	if (strcmp(cfg->target, attached_cfg.target))
		fprintf(stderr, "fdr xray mode: note: target='%s' ignored: this "
			"process records into '%s' until it exits\n", cfg->target,
			attached_cfg.target[0] ? attached_cfg.target : "the default");
	if (cfg->has_threshold && (!attached_cfg.has_threshold ||
				   cfg->threshold_us != attached_cfg.threshold_us))
		fprintf(stderr, "fdr xray mode: note: func_duration_threshold_us=%lu "
			"ignored: the threshold is set once per process\n",
			cfg->threshold_us);
}

__FDR_NO_INSTRUMENT static enum fdr_xray_log_init_status
mode_init(size_t buffer_size, size_t max_buffers, void *args, size_t args_size)
{
	struct fdr_xray_config cfg;
	char err[160];
	int ret;

	(void)buffer_size;	/* the region's geometry is fixed by its INIT */
	(void)max_buffers;
	if (fdr__xray_config_parse(&cfg, args, config_length(args, args_size),
				  err, sizeof(err))) {
		fprintf(stderr, "fdr xray mode: bad config: %s\n", err);
		return FDR_XRAY_LOG_UNINITIALIZED;
	}
	if (attached) {
		note_unchanged(&cfg);
	} else {
		if (cfg.has_threshold && fdr__xray_set_threshold(cfg.threshold_us))
			return FDR_XRAY_LOG_UNINITIALIZED;
		ret = fdr_attach(cfg.target[0] ? cfg.target : NULL);
		/* -ENODATA: attached to a region not initialized yet; recording
		 * starts at its INIT.  Anything else: fdr_attach said why. */
		if (ret && ret != -ENODATA)
			return FDR_XRAY_LOG_UNINITIALIZED;
		attached_cfg = cfg;
		attached = true;
	}
	fdr__xstate_init();	/* before a trampoline may take the general path */
	__xray_set_handler_arg1(fdr__xray_arg1_shim);
	__xray_set_customevent_handler(fdr__xray_event_shim);
	fdr__xray_fast_on = 1;	/* retargeted sleds call us directly */
	return FDR_XRAY_LOG_INITIALIZED;
}

__FDR_NO_INSTRUMENT static enum fdr_xray_log_init_status mode_finalize(void)
{
	const char *target = attached_cfg.target[0] ? attached_cfg.target : NULL;
	struct fdr_ctl *ctl;
	int ret;

	fdr__xray_fast_on = 0;	/* retargeted sleds defer to XRay again */
	__xray_remove_handler_arg1();
	__xray_remove_customevent_handler();
	fdr_thread_release();
	ret = fdr_ctl_open(&ctl, target);
	if (ret == 0) {
		ret = fdr_ctl_finalize(ctl);
		/* -EBUSY: fdrctl or a crash finalized it first; that is fine */
		if (ret && ret != -EBUSY)
			fprintf(stderr, "fdr xray mode: %s\n",
				fdr_ctl_strerror(ctl, "finalize", ret));
	} else {
		fprintf(stderr, "fdr xray mode: %s\n",
			fdr_ctl_strerror(ctl, "open", ret));
	}
	fdr_ctl_close(ctl);	/* also after a failed open (it keeps words) */
	return FDR_XRAY_LOG_FINALIZED;
}

/* After log_finalize and fdr_detach(): the next log_init attaches anew,
 * to the target and threshold it names (xray_attach.c). */
__FDR_NO_INSTRUMENT void fdr__xray_mode_forget(void)
{
	memset(&attached_cfg, 0, sizeof(attached_cfg));
	attached = false;
}

/* fdrd writes the log out of process; nothing to do here. */
__FDR_NO_INSTRUMENT static enum fdr_xray_log_flush_status mode_flush(void)
{
	return FDR_XRAY_LOG_FLUSHED;
}

const struct fdr_xray_log_impl fdr__xray_mode_impl = {
	.log_init = mode_init,
	.log_finalize = mode_finalize,
	.handle_arg0 = fdr__xray_arg0_shim,
	.flush_log = mode_flush,
};
