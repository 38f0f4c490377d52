// SPDX-License-Identifier: MIT
/*
 * flush_common.c - what both flushes share, the one of a finalized
 * region (flush.c) and the stream (stream.c): the log's names, the
 * kernel's STATUS under FLUSHING, the .sched bytes, and what fdrd says.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "ctl_retry.h"
#include "flush_common.h"
#include "log_name.h"
#include "msg.h"

#define MAX_NAME_TRIES 1000

/*
 * A log name (and its .threads and .sched) not in use yet: <seq> moves on
 * if any is taken, whether or not this flush writes a .sched: a log must
 * never sit beside another log's side file.
 * Taken includes a dangling symlink: the name could never be linked.  A
 * name taken after this check makes the link fail (EEXIST), never
 * replaces anything; the flush then fails and the retry moves on.
 */
int flush_choose_names(struct flusher *f, const struct out_dir *d,
			const struct log_layout *l, struct names *n)
{
	struct log_name_vars v = {
		.when = time(NULL),
		.generation = l->generation,
		.finalize_reason = l->finalize_reason,
		.pid = getpid(),
	};

	for (int i = 0; i < MAX_NAME_TRIES; i++) {
		v.seq = f->logs_written + (uint64_t)i;
		if (log_name_expand(f->opts->pattern, &v, n->log, sizeof(n->log)))
			return -ENAMETOOLONG;
		snprintf(n->threads, sizeof(n->threads), "%s.threads", n->log);
		snprintf(n->sched, sizeof(n->sched), "%s.sched", n->log);
		if (out_dir_has(d, n->log) == 0 && out_dir_has(d, n->threads) == 0 &&
		    out_dir_has(d, n->sched) == 0)
			return 0;
	}
	return -EEXIST;
}


void flush_report_problems(const struct log_layout *l)
{
	for (size_t i = 0; i < l->nr_problems; i++) {
		const struct log_problem *p = &l->problems[i];

		msg_warn("buffer %u (seq %llu): %s at byte %llu of %llu; %s %llu bytes",
			 p->index, (unsigned long long)p->seq, p->what,
			 (unsigned long long)p->at, (unsigned long long)p->extents,
			 p->kept ? "kept the first" : "dropped all", 
			 (unsigned long long)(p->kept ? p->kept : p->extents));
	}
	if (l->nr_clamped)
		msg_warn("%zu buffer(s) claimed more extents than buffer_size; clamped",
			 l->nr_clamped);
}


/*
 * "log NAME: finalized by trigger: function #12 lasted 20.3 ms (pid P,
 * tid T)", from the same trusted facts as the side table (STATUS on the
 * device, layout_facts.h); nothing for the other reasons, which the
 * side table and the <reason> placeholder already name.
 */
void flush_say_trigger(const struct log_layout *l, const char *log)
{
	if (l->finalize_reason != FDR_FINALIZE_TRIGGER)
		return;
	if (!l->finalize_fid && !l->finalize_duration_ns)
		msg_info("log %s: finalized by trigger: by hand (pid %d, tid %d)", log,
			 l->finalize_pid, l->finalize_tid);
	else
		msg_info("log %s: finalized by trigger: function #%d lasted %.1f ms "
			 "(pid %d, tid %d)", log, l->finalize_fid,
			 (double)l->finalize_duration_ns / 1e6, l->finalize_pid,
			 l->finalize_tid);
}


void flush_say_retention(void *arg, bool error, const char *text)
{
	(void)arg;
	if (error)
		msg_error("%s", text);
	else
		msg_info("%s", text);
}


/*
 * On the device: the kernel's STATUS to lay the log out from, taken after
 * FLUSH_BEGIN and the map rather than reusing the one that saw the region
 * finalized: before FLUSH_BEGIN another flusher could have flushed, reset
 * and re-initialized it, and a new generation been finalized since.
 * While we hold FLUSHING, RESET is refused, so this STATUS describes the
 * region we mapped; one that says otherwise is refused.  A stream flush
 * also runs while INITIALIZED.
 */
int flush_device_status(struct flusher *f, size_t len, bool stream,
			struct fdr_status *st)
{
	int ret = CTL_RETRY(fdr_ctl_status(f->ctl, st));
	bool state_ok = st->state == FDR_STATE_FINALIZED ||
			(stream && st->state == FDR_STATE_INITIALIZED);

	if (ret) {
		msg_error("%s", fdr_ctl_strerror(f->ctl, "status", ret));
		return ret;
	}
	if (!state_ok || st->flush_state != FDR_FLUSH_FLUSHING || st->map_size != len ||
	    (stream && !(st->flags & FDR_CTL_STREAM))) {
		msg_error("the region changed under the flush: STATUS says %s, %s, "
			  "%llu bytes; %zu mapped", fdr_state_name(st->state),
			  fdr_flush_state_name(st->flush_state),
			  (unsigned long long)st->map_size, len);
		return -ESTALE;
	}
	return 0;
}

/*
 * The .sched bytes when the kernel's STATUS (st, NULL on the embedded
 * backend) says the region has a scheduling area.  Decision: an area that
 * cannot be mapped or does not check out costs the .sched file, never the
 * log: a warning, and sf stays empty.  Copied now, while FLUSHING holds
 * the region, and unmapped at once: the file is built from the copy.
 */
void flush_take_sched(struct flusher *f, const struct fdr_status *st,
		       struct sched_file *sf)
{
	struct sched_facts facts;
	const char *why = NULL;
	const void *area;
	size_t len;
	int ret;

	memset(sf, 0, sizeof(*sf));
	if (!st || !(st->flags & FDR_CTL_SCHED))
		return;
	ret = CTL_RETRY(fdr_ctl_map_sched(f->ctl, &area, &len));
	if (ret) {
		msg_warn("%s; writing the log without a .sched file",
			 fdr_ctl_strerror(f->ctl, "map sched", ret));
		return;
	}
	facts = (struct sched_facts){ .generation = st->generation,
				      .tsc_hz = st->tsc_hz,
				      .sched_size = st->sched_size };
	ret = sched_file_build(area, len, &facts, sf, &why);
	fdr_ctl_unmap_sched(f->ctl);
	if (ret)
		msg_warn("the scheduling area of generation %u is unusable (%s); "
			 "writing the log without a .sched file", st->generation,
			 why ? why : strerror(-ret));
}
