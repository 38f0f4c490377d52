// SPDX-License-Identifier: MIT
/*
 * flush_stream.c - `fdr record --stream`: fdrd's stream flush
 * (../../fdrd/stream.c) on a thread of fdr's own, into the staging
 * directory, while PROG runs.  The thread takes the stream flush before
 * PROG starts, so that no other flusher can; it ends on its own once
 * the region is finalized after PROG (no grace period: every writer is
 * gone by then).
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "flush.h"
#include "record.h"
#include "stream.h"

struct stream_run {
	pthread_t thread;
	struct fdrd_options opts;
	struct flusher f;
	struct fdr_status seen;
	enum flush_outcome out;
	pthread_mutex_t lock;
	pthread_cond_t cond;
	int begun;		/* 0: not yet; 1: streaming; -1: it failed */
};

static void say_begun(void *ctx, bool ok)
{
	struct stream_run *s = ctx;

	pthread_mutex_lock(&s->lock);
	if (!s->begun)
		s->begun = ok ? 1 : -1;
	pthread_cond_signal(&s->cond);
	pthread_mutex_unlock(&s->lock);
}

static void *stream_thread(void *arg)
{
	struct stream_run *s = arg;
	struct stream_hooks h = { .begun = say_begun, .ctx = s };

	s->out = stream_region(&s->f, &s->seen, &h);
	say_begun(s, false);	/* no-op if it said so already */
	return NULL;
}

static void stream_free(struct stream_run *s)
{
	pthread_mutex_destroy(&s->lock);
	pthread_cond_destroy(&s->cond);
	free(s);
}

int fdr__stream_start(struct backend *b, const char *dir, struct stream_run **out)
{
	struct stream_run *s = calloc(1, sizeof(*s));
	int r;

	if (!s)
		return FDR_EXIT_FAILED;
	s->opts = (struct fdrd_options){ .pattern = FDR_LOG_NAME, .once = true,
					 .stream_interval_ms = 2 };
	snprintf(s->opts.output_dir, sizeof(s->opts.output_dir), "%s", dir);
	s->f = (struct flusher){ .ctl = b->ctl, .opts = &s->opts };
	s->seen.size = sizeof(s->seen);
	pthread_mutex_init(&s->lock, NULL);
	pthread_cond_init(&s->cond, NULL);
	r = fdr_ctl_status(b->ctl, &s->seen);
	if (r) {
		fprintf(stderr, "fdr record: %s\n", fdr_ctl_strerror(b->ctl, "status", r));
		stream_free(s);
		return FDR_EXIT_FAILED;
	}
	if (pthread_create(&s->thread, NULL, stream_thread, s)) {
		fprintf(stderr, "fdr record: cannot start the stream's thread\n");
		stream_free(s);
		return FDR_EXIT_FAILED;
	}
	pthread_mutex_lock(&s->lock);
	while (!s->begun)
		pthread_cond_wait(&s->cond, &s->lock);
	pthread_mutex_unlock(&s->lock);
	if (s->begun < 0) {
		pthread_join(s->thread, NULL);
		if (s->out == FLUSH_NOT_OURS)
			fprintf(stderr, "fdr record: another flusher (a system fdrd?) took the "
				"region's stream; its log is wherever that flusher writes\n");
		stream_free(s);
		return FDR_EXIT_FAILED;
	}
	*out = s;
	return 0;
}

int fdr__stream_finish(struct stream_run *s, const struct fdr_status *st,
		       struct flush_summary *sum)
{
	enum flush_outcome out;

	pthread_join(s->thread, NULL);
	out = s->out;
	memset(sum, 0, sizeof(*sum));
	sum->dropped = st->records_dropped;
	sum->stream_wait_known = s->f.stream.wait_known;
	sum->stream_wait_ns = s->f.stream.cpu_wait_ns;
	sum->stream_gap_ns = s->f.stream.max_gap_ns;
	sum->stream_write_ns = s->f.stream.max_write_ns;
	sum->stream_rt = s->f.stream.sched.prio == STREAM_PRIO_RT;
	/* A write failed mid-run (disk full, ulimit -f): the log up to the
	 * last whole buffer was named all the same (stream.c); keep it. */
	if (out == FLUSH_FAILED && s->f.stream.append_error && s->f.last_log[0]) {
		sum->stream_error = s->f.stream.append_error;
		out = FLUSH_WRITTEN;
	}
	if (out == FLUSH_WRITTEN) {
		sum->written = true;
		fdr__read_side_table(s->f.last_log, sum);
		fdr__read_sched_header(s->f.last_log, sum);
	}
	stream_free(s);
	return out == FLUSH_WRITTEN || out == FLUSH_NOTHING ? 0 : FDR_EXIT_FAILED;
}
