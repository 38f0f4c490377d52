// SPDX-License-Identifier: MIT
/*
 * flush.c - one flush cycle, in the order that keeps the invariants:
 * the side table is written before the log (a reader that sees a log
 * finds its table), the log is renamed into place last, and FLUSH_DONE is
 * reported only after both are complete.
 */
#include <errno.h>
#include <stdbool.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/uio.h>

#include "ctl_retry.h"
#include "flush.h"
#include "layout_facts.h"
#include "log_layout.h"
#include "log_name.h"
#include "msg.h"
#include "log_writer.h"
#include "out_dir.h"
#include "retention.h"
#include "sched_file.h"
#include "uring_writer.h"

#define MAX_NAME_TRIES 1000

struct names {
	char log[256];
	char threads[256 + 8];
	char sched[256 + 8];
};

/*
 * A log name (and its .threads and .sched) not in use yet: <seq> moves on
 * if any is taken, whether or not this flush writes a .sched: a log must
 * never sit beside another log's side file.
 * Taken includes a dangling symlink: the name could never be linked.  A
 * name taken after this check makes the link fail (EEXIST), never
 * replaces anything; the flush then fails and the retry moves on.
 */
static int choose_names(struct flusher *f, const struct out_dir *d,
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

static void report_problems(const struct log_layout *l)
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

static double ms_since(const struct timespec *t0)
{
	struct timespec t1;

	clock_gettime(CLOCK_MONOTONIC, &t1);
	return (double)(t1.tv_sec - t0->tv_sec) * 1e3 +
	       (double)(t1.tv_nsec - t0->tv_nsec) / 1e6;
}

/* "; .sched: 12 scheduling records, 3 lost" when one goes with the log. */
static void sched_summary(const struct sched_file *sf, char *out, size_t len)
{
	out[0] = 0;
	if (sf->bytes)
		snprintf(out, len, "; .sched: %llu scheduling records, %llu lost",
			 (unsigned long long)sf->nr_records,
			 (unsigned long long)sf->records_lost);
}

/* Log and side files; on failure none is left.  1: nothing to write. */
static int write_files(struct flusher *f, const struct out_dir *d,
		       struct log_layout *l, const struct names *n,
		       const struct sched_file *sf)
{
	struct log_sides sides = { .table_name = n->threads,
				   .sched_name = sf->bytes ? n->sched : NULL,
				   .sched = sf->bytes, .sched_len = sf->len };
	struct uring_write_report rep;
	struct timespec t0;
	char err[8192], sched[128];
	int ret;

	clock_gettime(CLOCK_MONOTONIC, &t0);
	ret = log_write(l, d, n->log, &sides, &f->opts->write,
			&rep, err, sizeof(err));
	if (ret < 0)
		msg_error("%s", err);
	if (ret)
		return ret;
	if (rep.fallback)
		msg_info("%s not used (%s); wrote with %s",
			 uring_write_mode_name(f->opts->write.mode), rep.fallback,
			 uring_write_mode_name(rep.mode_used));
	sched_summary(sf, sched, sizeof(sched));
	msg_info("wrote %s/%s: %zu buffers, %llu records, %llu bytes in %.1f ms "
		 "(%s, %lu writes; %zu buffers validated during the grace period)%s",
		 f->opts->output_dir, n->log, l->nr_buffers, (unsigned long long)l->records,
		 (unsigned long long)l->file_size, ms_since(&t0),
		 uring_write_mode_name(rep.mode_used), rep.sqes, f->reused, sched);
	return 0;
}

/*
 * "log NAME: finalized by trigger: function #12 lasted 20.3 ms (pid P,
 * tid T)", from the same trusted facts as the side table (STATUS on the
 * device, layout_facts.h); nothing for the other reasons, which the
 * side table and the <reason> placeholder already name.
 */
static void say_trigger(const struct log_layout *l, const char *log)
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

static enum flush_outcome nothing_to_write(const struct log_layout *l)
{
	msg_info("generation %u holds no records: no log written "
		 "(llvm-xray rejects a log without buffers)", l->generation);
	return FLUSH_NOTHING;
}

static void say_retention(void *arg, bool error, const char *text)
{
	(void)arg;
	if (error)
		msg_error("%s", text);
	else
		msg_info("%s", text);
}

/*
 * Decision: a log that alone would go past --max-bytes is not written at
 * all (never a partial file) and its buffers are given up: the region is
 * reported flushed, so that --auto-reset records on rather than holding
 * a region nobody can ever flush.  Counted: the log and its .sched (the
 * .threads table, a few hundred bytes, is rendered later).
 */
static bool too_big(const struct flusher *f, const struct log_layout *l,
		    const struct sched_file *sf)
{
	char why[128];

	if (!retention_too_big(&f->opts->retain, l->file_size + sf->len, why, sizeof(why)))
		return false;
	msg_error("generation %u not written: its log would be %s; no file written, "
		  "its %zu buffers are given up and the region reported flushed",
		  l->generation, why, l->nr_buffers);
	return true;
}

/* Lay out and write; the caller has FLUSH_BEGIN and reports the end. */
static enum flush_outcome flush_mapped(struct flusher *f,
				       const struct fdr_control *area, size_t len,
				       const struct fdr_status *trusted,
				       const struct sched_file *sf)
{
	enum flush_outcome out = FLUSH_WRITTEN;
	struct out_dir d = { .fd = -1 };
	struct log_layout l;
	struct names n;
	const char *why;
	char err[PATH_MAX + 512];
	int ret;

	ret = log_layout_select(area, len, trusted, &l, &why);
	if (ret) {
		msg_error("cannot lay out the log: %s", why ? why : strerror(-ret));
		return FLUSH_FAILED;
	}
	if (!l.nr_buffers) {
		out = nothing_to_write(&l);
		goto done;
	}
	if (too_big(f, &l, sf)) {
		out = FLUSH_SKIPPED;
		goto done;
	}
	f->reused = log_precheck_apply(&l, &f->precheck);
	/* once per flush: a directory removed and made again is found */
	if (out_dir_open(&d, f->opts->output_dir, f->opts->allow_insecure_dir,
			 err, sizeof(err))) {
		msg_error("%s", err);
		out = FLUSH_FAILED;
		goto done;
	}
	ret = choose_names(f, &d, &l, &n);
	if (ret) {
		msg_error("no free log name in %s for pattern '%s': %s",
			  f->opts->output_dir, f->opts->pattern, strerror(-ret));
		out = FLUSH_FAILED;
		goto done;
	}
	ret = write_files(f, &d, &l, &n, sf);
	report_problems(&l);
	if (ret == 1) {
		out = nothing_to_write(&l);
	} else if (ret) {
		out = FLUSH_FAILED;
	} else {
		f->logs_written++;
		snprintf(f->last_log, sizeof(f->last_log), "%s/%s",
			 f->opts->output_dir, n.log);
		say_trigger(&l, n.log);
		retention_apply(&d, f->opts->pattern, &f->opts->retain, n.log,
				say_retention, NULL);
	}
done:
	out_dir_close(&d);
	log_layout_free(&l);
	return out;
}

/*
 * st was taken before the grace period, without FLUSHING held, so the
 * region may have been replaced before the map.  That is harmless here:
 * the walks are only a cache keyed by (generation, seq, extents), a
 * different region's buffers never match the flush's generation, and the
 * geometry is checked against the mapping before any descriptor is read.
 */
void flush_precheck(struct flusher *f, const struct fdr_status *st)
{
	const struct fdr_control *area;
	size_t len;

	log_precheck_free(&f->precheck);
	if (CTL_RETRY(fdr_ctl_map(f->ctl, &area, &len)))
		return;
	if (log_precheck_build(area, len, layout_trusted_status(st),
				       &f->precheck))
		log_precheck_free(&f->precheck);
	fdr_ctl_unmap(f->ctl);
}

/*
 * On the device: the kernel's STATUS to lay the log out from, taken after
 * FLUSH_BEGIN and the map rather than reusing the one that saw the region
 * finalized: before FLUSH_BEGIN another flusher could have flushed, reset
 * and re-initialized it, and a new generation been finalized since.
 * While we hold FLUSHING, RESET is refused, so this STATUS describes the
 * region we mapped; one that says otherwise is refused.
 */
static int device_status(struct flusher *f, size_t len, struct fdr_status *st)
{
	int ret = CTL_RETRY(fdr_ctl_status(f->ctl, st));

	if (ret) {
		msg_error("%s", fdr_ctl_strerror(f->ctl, "status", ret));
		return ret;
	}
	if (st->state != FDR_STATE_FINALIZED ||
	    st->flush_state != FDR_FLUSH_FLUSHING || st->map_size != len) {
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
static void take_sched(struct flusher *f, const struct fdr_status *st,
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

/*
 * Map and lay out from the kernel's STATUS on the device, from the
 * control page on the embedded backend (seen, the status that found the
 * region finalized, tells which: layout_facts.h).
 */
static enum flush_outcome flush_begun(struct flusher *f,
				      const struct fdr_status *seen)
{
	struct fdr_status st = { .size = sizeof(st) };
	const struct fdr_status *trusted = NULL;
	const struct fdr_control *area;
	struct sched_file sf = { 0 };
	enum flush_outcome out;
	size_t len;
	int ret = CTL_RETRY(fdr_ctl_map(f->ctl, &area, &len));

	if (ret) {
		msg_error("%s", fdr_ctl_strerror(f->ctl, "map", ret));
		return FLUSH_FAILED;
	}
	if (layout_trusted_status(seen)) {
		ret = device_status(f, len, &st);
		trusted = &st;
	}
	if (!ret)
		take_sched(f, trusted, &sf);
	out = ret ? FLUSH_FAILED : flush_mapped(f, area, len, trusted, &sf);
	sched_file_free(&sf);
	fdr_ctl_unmap(f->ctl);
	return out;
}

enum flush_outcome flush_region(struct flusher *f, const struct fdr_status *seen)
{
	enum flush_outcome out;
	int ret;

	ret = CTL_RETRY(fdr_ctl_flush_begin(f->ctl));
	if (ret == -EBUSY)
		return FLUSH_NOT_OURS;
	if (ret) {
		msg_error("%s", fdr_ctl_strerror(f->ctl, "flush begin", ret));
		return FLUSH_FAILED;
	}
	out = flush_begun(f, seen);
	ret = out == FLUSH_FAILED ? CTL_RETRY(fdr_ctl_flush_abort(f->ctl))
				  : CTL_RETRY(fdr_ctl_flush_done(f->ctl));
	/* a log already in place stays WRITTEN: retrying would duplicate it */
	if (ret)
		msg_error("%s", fdr_ctl_strerror(f->ctl, out == FLUSH_FAILED ?
						 "flush abort" : "flush done", ret));
	return out;
}
