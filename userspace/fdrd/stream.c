// SPDX-License-Identifier: MIT
/*
 * stream.c - the stream flush (stream.h).
 *
 * The loop looks at the descriptors again at once after a look that
 * found buffers, else after a wait of 1 ms that doubles up to
 * --stream-interval while none come: writers make no syscall, so there
 * is nothing to wait on.  Both waits are also at most the time a writer
 * at full speed takes to fill half of a CPU's ring (max_wait_us): with
 * bench/stream's 1 MiB rings, filled in 2 ms at full speed, the loop
 * slept 2 ms after two empty looks.  Each look is a
 * flight-recorder layout of the region (log_layout_select) cut down to
 * the buffers that can go now:
 *
 *  - RELEASED ones only: a HELD buffer is still being written;
 *  - per thread, none after a buffer of the same thread still HELD, so
 *    that a thread's buffers reach the log in their order (a thread
 *    can release buffer n+1 between our reads of n and n+1).
 *
 * They are validated, appended and handed back, on the CPU that wrote
 * most of them (stream_cpu.h).  Nothing here waits on a
 * writer, and a writer never waits on us: with no FREE buffer it drops
 * and counts (uapi/linux/fdr.h).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cpu_wait.h"
#include "ctl_retry.h"
#include "flush_common.h"
#include "layout_facts.h"
#include "msg.h"
#include "retention.h"
#include "stream.h"
#include "stream_cpu.h"
#include "stream_log.h"
#include "stream_sched.h"

#define MIN_INTERVAL_US 1000u
/*
 * Faster than any writer fills its ring: one 8-byte record per ~8 ns,
 * about an rdtsc (bench/results.md: 68 M events/s, 540 MB/s, at full
 * speed on an Intel Xeon whose rdtsc takes 10 ns).
 */
#define WRITER_MAX_BYTES_PER_US 1024u
#define LEAST_WAIT_US 100u
/*
 * A look takes the earliest ready buffers up to about this many bytes,
 * writes them and hands them back, then looks again at once: the writers
 * get buffers back every ~0.3 ms instead of after the whole backlog (a
 * look that found 2 MiB ready held all of it for the 1-2 ms of its
 * validation and write, as long as a full-speed writer takes to fill a
 * 1 MiB-per-CPU ring: bench/stream (d)).
 */
#define LOOK_BYTES (512u * 1024)

struct stream {
	struct flusher *f;
	struct fdr_control *area;
	size_t len;
	struct fdr_status st;			/* the device's, when trusted */
	const struct fdr_status *trusted;	/* &st, or NULL (embedded) */
	struct out_dir d;
	struct stream_log log;
	bool log_open;
	bool at_limit;		/* --max-bytes reached: nothing more is written */
	struct stream_cpu cpu;	/* the thread on its writers' CPU */
	uint64_t passes, handed_back;
};

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static void sleep_us(uint64_t us)
{
	struct timespec ts = { (time_t)(us / 1000000), (long)(us % 1000000) * 1000 };

	nanosleep(&ts, NULL);
}

/*
 * The longest wait between two looks: --stream-interval, or less, the
 * time a writer at full speed takes to fill half a CPU's ring, at least
 * LEAST_WAIT_US.  The geometry is read from the control page (a
 * writer's, on an embedded region): a wrong one only moves the waits
 * within those bounds.
 */
static unsigned int max_wait_us(const struct stream *s)
{
	uint64_t ring = __atomic_load_n(&s->area->buffer_size, __ATOMIC_RELAXED) *
			(uint64_t)__atomic_load_n(&s->area->buffers_per_cpu, __ATOMIC_RELAXED);
	uint64_t us = ring / 2 / WRITER_MAX_BYTES_PER_US;
	uint64_t most = (uint64_t)s->f->opts->stream_interval_ms * 1000;

	return us < LEAST_WAIT_US ? LEAST_WAIT_US : us > most ? (unsigned int)most
							     : (unsigned int)us;
}

/* A held thread's earliest buffer, for the per-thread order rule. */
struct held { int32_t tid, pid; uint64_t seq; };

static int by_thread(const void *a, const void *b)
{
	const struct held *x = a, *y = b;

	if (x->tid != y->tid)
		return x->tid < y->tid ? -1 : 1;
	if (x->pid != y->pid)
		return x->pid < y->pid ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

/* Does a buffer of b's thread, still HELD, come before b? */
static bool waits_for_held(const struct held *h, size_t n, const struct log_buffer *b)
{
	struct held key = { b->owner_tid, b->owner_pid, 0 };
	size_t lo = 0, hi = n;

	while (lo < hi) {	/* the first entry of b's thread */
		size_t mid = (lo + hi) / 2;

		if (by_thread(&h[mid], &key) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < n && h[lo].tid == key.tid && h[lo].pid == key.pid &&
	       h[lo].seq < b->seq;
}

/*
 * Keep the RELEASED buffers that can go now (see the top of the file),
 * the earliest LOOK_BYTES of them: a prefix in sequence order, so no
 * thread's buffer goes before an earlier one of the same thread.
 */
static int pick_ready(struct log_layout *l, size_t *ready)
{
	struct held *h = calloc(l->nr_buffers + 1, sizeof(*h));
	size_t nh = 0, kept = 0;
	uint64_t bytes = 0;

	if (!h)
		return -ENOMEM;
	for (size_t i = 0; i < l->nr_buffers; i++)
		if (l->buffers[i].state != FDR_BUF_RELEASED)
			h[nh++] = (struct held){ l->buffers[i].owner_tid,
						 l->buffers[i].owner_pid, l->buffers[i].seq };
	*ready = l->nr_buffers - nh;
	qsort(h, nh, sizeof(*h), by_thread);
	for (size_t i = 0; i < l->nr_buffers && bytes < LOOK_BYTES; i++)
		if (l->buffers[i].state == FDR_BUF_RELEASED &&
		    !waits_for_held(h, nh, &l->buffers[i])) {
			bytes += l->buffers[i].len;
			l->buffers[kept++] = l->buffers[i];
		}
	l->nr_buffers = kept;
	l->changed = true;	/* log_layout_finish places what is left */
	free(h);
	return 0;
}

/*
 * Decision: a stream that would take its log past --max-bytes stops
 * there: fdrd finalizes the region, writes nothing more (the rest is
 * given up, as for a flight-recorder log too big to write) and names the
 * log it has, which ends at a buffer boundary and is complete up to it.
 */
static bool over_limit(struct stream *s, const struct log_layout *batch)
{
	const struct fdrd_options *o = s->f->opts;
	char why[128];
	int ret;

	if (!retention_too_big(&o->retain, s->log.size + batch->file_size -
			       FDR_LOG_HEADER_SIZE, why, sizeof(why)))
		return false;
	msg_error("stream of generation %u stopped: its log would be %s; finalizing "
		  "the region, the records not yet written are given up",
		  batch->generation, why);
	ret = CTL_RETRY(fdr_ctl_finalize(s->f->ctl));
	if (ret && ret != -EBUSY)
		msg_error("%s", fdr_ctl_strerror(s->f->ctl, "finalize", ret));
	s->at_limit = true;
	return true;
}

/* Hand the written (or malformed) buffers back to the writers. */
static void hand_back(struct stream *s, const uint32_t *idx, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (!fdr_ctl_stream_free(s->f->ctl, idx[i]))
			s->handed_back++;
}

static int append(struct stream *s, struct log_layout *l)
{
	char err[PATH_MAX + 256];
	int ret = stream_log_append(&s->log, l, err, sizeof(err));

	if (ret) {
		msg_error("%s", err);
		s->f->stream.append_error = ret;
	}
	return ret;
}

/*
 * One look: the buffers that can go now (all that hold records, once
 * final), validated, appended, and - before the finalize - handed back.
 * Returns how many went, or -errno.
 */
static int stream_pass(struct stream *s, bool final, struct log_layout *l)
{
	uint32_t *idx = NULL;
	size_t n, ready;
	const char *why;
	int ret = log_layout_select(s->area, s->len, s->trusted, l, &why);

	if (ret) {
		msg_error("cannot lay out the stream: %s", why ? why : strerror(-ret));
		return ret;
	}
	if (!final && (ret = pick_ready(l, &ready)))
		return ret;
	if (!final && stream_sched_realtime(&s->f->stream.sched))
		stream_cpu_follow(&s->cpu, l, ready, l->nr_descs);	/* stream_cpu.h */
	else
		stream_cpu_end(&s->cpu);	/* it would wait behind them there */
	n = l->nr_buffers;
	idx = malloc((n + 1) * sizeof(*idx));
	if (!idx)
		return -ENOMEM;
	for (size_t i = 0; i < n; i++)
		idx[i] = l->buffers[i].index;
	log_layout_finish(l);	/* validation may drop some: still handed back */
	flush_report_problems(l);
	ret = 0;
	if (!s->at_limit && l->nr_buffers && !over_limit(s, l)) {
		uint64_t t0 = now_ns(), took;

		ret = append(s, l);
		took = now_ns() - t0;	/* a write that blocks holds the buffers */
		if (took > s->f->stream.max_write_ns)
			s->f->stream.max_write_ns = took;
	}
	if (!ret && !final)
		hand_back(s, idx, n);
	free(idx);
	s->passes++;
	return ret ? ret : (int)n;
}

/* Has the region stopped recording?  The device's STATUS has the last word. */
static bool finalized(struct stream *s)
{
	uint32_t state = __atomic_load_n(&s->area->state, __ATOMIC_ACQUIRE);

	if (state == FDR_STATE_INITIALIZED && !s->at_limit)
		return false;
	if (!s->trusted)
		return true;
	return !flush_device_status(s->f, s->len, true, &s->st) &&
	       s->st.state == FDR_STATE_FINALIZED;
}

/* A look at the ring now: the longest time between two, for the summary. */
static void note_look(struct stream_facts *facts, uint64_t *last)
{
	uint64_t t = now_ns();

	if (t - *last > facts->max_gap_ns)	/* the writers' room must outlast it */
		facts->max_gap_ns = t - *last;
	*last = t;
}

/* The last look: the finalize's facts for the side table. */
static void keep_finalize_facts(struct stream *s, const struct log_layout *l)
{
	s->log.all.finalize_reason = l->finalize_reason;
	s->log.all.finalize_signal = l->finalize_signal;
	s->log.all.finalize_pid = l->finalize_pid;
	s->log.all.finalize_tid = l->finalize_tid;
	s->log.all.finalize_fid = l->finalize_fid;
	s->log.all.finalize_duration_ns = l->finalize_duration_ns;
	s->log.all.generation = l->generation;
}

/* Stream until the finalize (1), fdrd stops (0), or an error (-errno). */
static int stream_looks(struct stream *s, const struct stream_hooks *h)
{
	unsigned int max = max_wait_us(s);
	unsigned int least = max < MIN_INTERVAL_US ? max : MIN_INTERVAL_US, wait = least;
	struct stream_facts *facts = &s->f->stream;
	uint64_t waited0 = 0, last = now_ns();
	struct stream_sched sched = facts->sched;	/* stream_loop's */
	struct log_layout l;
	int n;

	*facts = (struct stream_facts){ .wait_known = cpu_wait_ns(&waited0), .sched = sched };
	stream_cpu_begin(&s->cpu);
	for (;;) {
		bool final = finalized(s);

		note_look(facts, &last);
		if (final)	/* the last pass takes everything: not real-time */
			stream_sched_normal(&facts->sched);
		if (final && s->f->opts->grace_ms)
			sleep_us((uint64_t)s->f->opts->grace_ms * 1000);	/* writers finish their record */
		n = stream_pass(s, final, &l);
		if (final && n >= 0)
			keep_finalize_facts(s, &l);
		if (final || n < 0)
			stream_cpu_end(&s->cpu);
		log_layout_free(&l);
		if ((n < 0 || final) && facts->wait_known &&	/* once: it opens a file */
		    (facts->wait_known = cpu_wait_ns(&facts->cpu_wait_ns)))
			facts->cpu_wait_ns -= waited0;
		if (n < 0)
			return n;
		if (final)
			return 1;
		if (h && h->keep_going && !h->keep_going(h->ctx)) {
			stream_cpu_end(&s->cpu);
			return 0;
		}
		stream_sched_look(&facts->sched, n > 0, now_ns());
		if (n) {	/* more may be ready already: look again at once */
			wait = least;
			continue;
		}
		sleep_us(wait);
		wait = wait * 2 > max ? max : wait * 2;
	}
}

/* The looks, the thread raised for them (stream_sched.c) and back. */
static int stream_loop(struct stream *s, const struct stream_hooks *h)
{
	int ret;

	stream_sched_prompt(&s->f->stream.sched, now_ns());
	ret = stream_looks(s, h);
	stream_sched_normal(&s->f->stream.sched);
	return ret;
}

/*
 * What the writers dropped, for the side table: STATUS's sum of the
 * per-CPU counters (writer-maintained on either backend: reported only).
 */
static void drops_of(struct stream *s)
{
	struct fdr_status st = { .size = sizeof(st) };

	s->log.all.stream = true;
	if (!CTL_RETRY(fdr_ctl_status(s->f->ctl, &st)))
		s->log.all.records_dropped = st.records_dropped;
}

static enum flush_outcome publish(struct stream *s)
{
	struct sched_file sf = { 0 };
	struct names n;
	char err[PATH_MAX + 512];
	int ret;

	if (!s->log_open || !s->log.all.nr_buffers) {
		msg_info("stream of generation %u held no records: no log written",
			 s->log.all.generation);
		return FLUSH_NOTHING;
	}
	drops_of(s);
	ret = flush_choose_names(s->f, &s->d, &s->log.all, &n);
	if (ret) {
		msg_error("no free log name in %s for pattern '%s': %s",
			  s->f->opts->output_dir, s->f->opts->pattern, strerror(-ret));
		return FLUSH_FAILED;
	}
	if (s->trusted && s->st.state == FDR_STATE_FINALIZED)
		flush_take_sched(s->f, s->trusted, &sf);
	struct log_sides sides = { .table_name = n.threads,
				   .sched_name = sf.bytes ? n.sched : NULL,
				   .sched = sf.bytes, .sched_len = sf.len };
	ret = stream_log_publish(&s->log, &s->d, n.log, &sides, &s->f->opts->write,
				 err, sizeof(err));
	sched_file_free(&sf);
	if (ret) {
		msg_error("%s", err);
		return FLUSH_FAILED;
	}
	s->f->logs_written++;
	snprintf(s->f->last_log, sizeof(s->f->last_log), "%s/%s",
		 s->f->opts->output_dir, n.log);
	msg_info("wrote %s/%s: streamed %zu buffers, %llu records, %llu bytes in %llu looks "
		 "(at most %.1f ms apart; the longest append %.1f ms)", s->f->opts->output_dir,
		 n.log, s->log.all.nr_buffers, (unsigned long long)s->log.all.records,
		 (unsigned long long)s->log.size, (unsigned long long)s->passes,
		 s->f->stream.max_gap_ns / 1e6, s->f->stream.max_write_ns / 1e6);
	if (s->f->stream.wait_known)
		msg_info("the stream's thread waited %.1f ms in all for a CPU (%s)",
			 s->f->stream.cpu_wait_ns / 1e6, stream_sched_name(&s->f->stream.sched));
	if (s->cpu.moves)
		msg_info("the stream's thread moved to its writers' CPU %lu times", s->cpu.moves);
	flush_say_trigger(&s->log.all, n.log);
	retention_apply(&s->d, s->f->opts->pattern, &s->f->opts->retain, n.log,
			flush_say_retention, NULL);
	return FLUSH_WRITTEN;
}

/*
 * The log's file, before the first look: creating it (an io_uring, the
 * unnamed file, the header's write, which starts an io-wq worker) took
 * 2-5 ms, and done at the first append it held the first look's buffers
 * that long while PROG, already running, filled a 1 MiB ring in ~2 ms
 * (bench/stream README, 2026-12-06).  The header comes from the region's
 * facts, which do not change within a generation.
 */
static int open_log(struct stream *s)
{
	char err[PATH_MAX + 256];
	struct log_layout l;
	const char *why;
	int ret = log_layout_select(s->area, s->len, s->trusted, &l, &why);

	if (ret) {
		msg_error("cannot lay out the stream: %s", why ? why : strerror(-ret));
		return ret;
	}
	ret = stream_log_open(&s->log, &s->d, &l.header, s->f->opts->write.no_tmpfile,
			      err, sizeof(err));
	log_layout_free(&l);
	if (ret) {
		msg_error("%s", err);
		return ret;
	}
	s->log_open = true;
	return 0;
}

/* Map, check, open the directory and the log: the stream's ground. */
static int stream_setup(struct stream *s, const struct fdr_status *seen)
{
	char err[PATH_MAX + 512];
	int ret = CTL_RETRY(fdr_ctl_map_stream(s->f->ctl, &s->area, &s->len));

	if (ret) {
		msg_error("%s", fdr_ctl_strerror(s->f->ctl, "map", ret));
		return ret;
	}
	if (layout_trusted_status(seen)) {
		ret = flush_device_status(s->f, s->len, true, &s->st);
		if (ret)
			return ret;
		s->trusted = &s->st;
	} else if (!(s->area->flags & FDR_CTL_STREAM)) {
		msg_error("the region is no longer in streaming mode");
		return -ESTALE;
	}
	if (out_dir_open(&s->d, s->f->opts->output_dir, s->f->opts->allow_insecure_dir,
			 err, sizeof(err))) {
		msg_error("%s", err);
		return -EIO;
	}
	return open_log(s);
}

static enum flush_outcome stream_begun(struct stream *s, const struct fdr_status *seen,
				       const struct stream_hooks *h)
{
	enum flush_outcome out = FLUSH_FAILED;
	int ret = stream_setup(s, seen);

	if (h && h->begun)
		h->begun(h->ctx, !ret);
	if (!ret) {
		msg_info("streaming generation %u into %s", s->trusted ? s->st.generation
			 : s->area->generation, s->f->opts->output_dir);
		ret = stream_loop(s, h);
	}
	if (ret >= 0 || s->log_open)
		out = publish(s);	/* what was written stays, named */
	if (ret < 0 && out != FLUSH_FAILED)
		out = FLUSH_FAILED;
	if (ret == 0 && out != FLUSH_FAILED)
		out = FLUSH_STOPPED;
	if (s->log_open)
		stream_log_close(&s->log, &s->d);
	out_dir_close(&s->d);
	fdr_ctl_unmap(s->f->ctl);
	return out;
}

enum flush_outcome stream_region(struct flusher *f, const struct fdr_status *seen,
				 const struct stream_hooks *hooks)
{
	struct stream s = { .f = f, .d = { .fd = -1 } };
	enum flush_outcome out;
	int ret = CTL_RETRY(fdr_ctl_flush_begin(f->ctl));

	if (ret && hooks && hooks->begun)
		hooks->begun(hooks->ctx, false);
	if (ret == -EBUSY)
		return FLUSH_NOT_OURS;
	if (ret) {
		msg_error("%s", fdr_ctl_strerror(f->ctl, "flush begin", ret));
		return FLUSH_FAILED;
	}
	out = stream_begun(&s, seen, hooks);
	/* done only once finalized: stopping or failing, the region records on */
	ret = out == FLUSH_WRITTEN || out == FLUSH_NOTHING
	      ? CTL_RETRY(fdr_ctl_flush_done(f->ctl))
	      : CTL_RETRY(fdr_ctl_flush_abort(f->ctl));
	if (ret)
		msg_error("%s", fdr_ctl_strerror(f->ctl, out == FLUSH_WRITTEN ||
						 out == FLUSH_NOTHING ? "flush done" :
						 "flush abort", ret));
	return out;
}
