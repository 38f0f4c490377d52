// SPDX-License-Identifier: MIT
/* region_util.c - see region_util.h. */
#include <errno.h>
#include <sched.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/wait.h>
#include <linux/fdr_log.h>
#include <fdr_reader.h>
#include "region_util.h"
#include "tap.h"

/* Regions a test made, removed at its exit even when a check failed
 * half-way (but not by forked children, which share them). */
static char made[64][96];
static int nmade;
static pid_t maker;

static void remove_made(void)
{
	if (getpid() != maker)
		return;
	for (int i = 0; i < nmade; i++)
		fdr_ctl_destroy_embedded(made[i]);
}

static void remember(const char *target)
{
	if (!maker) {
		maker = getpid();
		atexit(remove_made);
	}
	if (nmade < 64)
		snprintf(made[nmade++], sizeof(made[0]), "%s", target);
}

int tr_create(struct test_region *tr, const char *tag, uint64_t buffer_size,
	      uint32_t buffers_per_cpu)
{
	struct fdr_init cfg = { .size = sizeof(cfg), .buffer_size = buffer_size,
				.buffers_per_cpu = buffers_per_cpu };

	return tr_create_cfg(tr, tag, &cfg);
}

int tr_create_cfg(struct test_region *tr, const char *tag,
		  const struct fdr_init *cfg)
{
	int ret;

	memset(tr, 0, sizeof(*tr));
	snprintf(tr->target, sizeof(tr->target), "embedded:t-%s-%d", tag,
		 getpid());
	fdr_ctl_destroy_embedded(tr->target);
	remember(tr->target);
	ret = fdr_ctl_open(&tr->ctl, tr->target);
	if (ret == 0)
		ret = fdr_ctl_init(tr->ctl, cfg);
	if (ret < 0)
		fprintf(stderr, "tr_create: %s\n",
			fdr_ctl_strerror(tr->ctl, "init", ret));
	return ret;
}

int tr_to_uninitialized(struct fdr_ctl *ctl)
{
	struct fdr_status st;
	int ret = fdr_ctl_status(ctl, &st);

	if (ret < 0)
		return ret;
	if (st.state == FDR_STATE_INITIALIZED)
		fdr_ctl_finalize(ctl);
	/* ours, else (root) whichever file began it */
	if (st.flush_state == FDR_FLUSH_FLUSHING && fdr_ctl_flush_abort(ctl))
		fdr_ctl_flush_force_abort(ctl);
	if (fdr_ctl_status(ctl, &st) == 0 && st.state == FDR_STATE_FINALIZED)
		fdr_ctl_reset(ctl);
	ret = fdr_ctl_status(ctl, &st);
	return ret < 0 ? ret : st.state == FDR_STATE_UNINITIALIZED ? 0 : -EBUSY;
}

int tr_open_device(struct test_region *tr, uint64_t buffer_size,
		   uint32_t buffers_per_cpu)
{
	struct fdr_init cfg = { .size = sizeof(cfg), .buffer_size = buffer_size,
				.buffers_per_cpu = buffers_per_cpu };

	return tr_open_device_cfg(tr, &cfg);
}

int tr_open_device_cfg(struct test_region *tr, const struct fdr_init *cfgp)
{
	struct fdr_init cfg = *cfgp;
	int ret;

	memset(tr, 0, sizeof(*tr));
	snprintf(tr->target, sizeof(tr->target), "%s", FDR_DEFAULT_DEVICE);
	ret = fdr_ctl_open(&tr->ctl, tr->target);
	if (ret == 0)
		ret = tr_to_uninitialized(tr->ctl);
	if (ret == 0)
		ret = fdr_ctl_init(tr->ctl, &cfg);
	if (ret < 0)
		fprintf(stderr, "tr_open_device: %s\n",
			fdr_ctl_strerror(tr->ctl, "init", ret));
	return ret;
}

int tr_map(struct test_region *tr)
{
	struct fdr_status st;
	int ret = fdr_ctl_map(tr->ctl, &tr->c, &tr->len);

	if (ret == 0)
		ret = fdr_ctl_status(tr->ctl, &st);
	if (ret == 0)
		ret = fdr_region_view(&tr->view, tr->c, tr->len, &st);
	return ret;
}

void tr_destroy(struct test_region *tr)
{
	if (strncmp(tr->target, FDR_EMBEDDED_PREFIX, strlen(FDR_EMBEDDED_PREFIX)))
		tr_to_uninitialized(tr->ctl);
	else
		fdr_ctl_destroy_embedded(tr->target);
	fdr_ctl_close(tr->ctl);
	memset(tr, 0, sizeof(*tr));
}

const struct fdr_buffer_desc *tr_desc(const struct test_region *tr, uint32_t i)
{
	return &tr->view.descs[i];
}

const uint8_t *tr_buffer(const struct test_region *tr, uint32_t i)
{
	return tr->view.buffers + (uint64_t)i * tr->view.buffer_size;
}

uint64_t tr_note_size(uint64_t buffer_size)
{
	char exe[4096];
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe));
	uint64_t want = FDR_OWNER_NOTE_MIN + (uint64_t)(n > 0 ? n : 0);
	uint64_t limit = buffer_size / 8 < FDR_OWNER_NOTE_MAX ?
			 buffer_size / 8 : FDR_OWNER_NOTE_MAX;

	want = (want + 7) / 8 * 8;
	return want < limit ? want : limit;
}

int tr_buffers_by_seq(const struct test_region *tr, uint32_t *idx, int max)
{
	int n = 0;

	for (uint32_t i = 0; i < tr->c->nr_buffers && n < max; i++)
		if (tr_desc(tr, i)->extents > 0)
			idx[n++] = i;
	/* insertion sort by seq: small n */
	for (int i = 1; i < n; i++)
		for (int j = i; j > 0 && tr_desc(tr, idx[j - 1])->seq >
					       tr_desc(tr, idx[j])->seq; j--) {
			uint32_t x = idx[j];

			idx[j] = idx[j - 1];
			idx[j - 1] = x;
		}
	return n;
}

int writable_mappings(const char *target)
{
	const char *name = target;
	char line[512], path[256];
	FILE *f = fopen("/proc/self/maps", "r");
	int n = 0;

	if (!strncmp(target, FDR_EMBEDDED_PREFIX, strlen(FDR_EMBEDDED_PREFIX)))
		name = target + strlen(FDR_EMBEDDED_PREFIX);
	snprintf(path, sizeof(path), "%s%s", name == target ? "" : "/dev/shm/fdr-",
		 name);
	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		const char *p = strstr(line, path);
		unsigned long lo, hi;

		/* perms "rw-s"; a replaced shm object reads "... (deleted)";
		 * one page is a controller's map of the control page only */
		n += sscanf(line, "%lx-%lx", &lo, &hi) == 2 &&
		     hi - lo > (unsigned long)sysconf(_SC_PAGESIZE) &&
		     strstr(line, " rw-s ") && p &&
		     (p[strlen(path)] == '\n' || p[strlen(path)] == ' ');
	}
	fclose(f);
	return n;
}

bool tr_follow_reinits(struct test_region *tr, int n)
{
	struct timespec nap = { 0, 25 * 1000 * 1000 };	/* > libfdr's recheck */
	int before = writable_mappings(tr->target);
	uint32_t idx[4];

	for (int i = 1; i <= n; i++) {
		struct fdr_init cfg = { .size = sizeof(cfg),
					.buffer_size = i % 2 ? 16384 : 8192,
					.buffers_per_cpu = 1 };

		CHECK(tr_to_uninitialized(tr->ctl) == 0 &&
		      fdr_ctl_init(tr->ctl, &cfg) == 0, "re-init %d", i);
		nanosleep(&nap, NULL);
		fdr_enter(i);
		/* preamble, NewCPUId, the Enter */
		CHECK(tr_map(tr) == 0 && tr_buffers_by_seq(tr, idx, 4) == 1 &&
		      tr_desc(tr, idx[0])->extents == 32 + 16 + 8,
		      "re-init %d: recorded in the new region", i);
	}
	CHECK(writable_mappings(tr->target) == before,
	      "writable mappings: %d, then %d", before,
	      writable_mappings(tr->target));
	return true;
}

static void record_pairs(int p, int pairs)
{
	for (int i = 0; i < pairs; i++) {
		fdr_enter(1000 * (p + 1) + i % 100);
		fdr_exit(1000 * (p + 1) + i % 100);
	}
}

/* Count the function records of buffer i into count[child]. */
static bool count_child_records(const struct test_region *tr, uint32_t i,
				const pid_t pids[2], int count[2])
{
	static struct rec recs[8192];	/* a 64 KiB buffer's worth */
	const struct fdr_buffer_desc *d = tr_desc(tr, i);
	int p = d->owner_pid == pids[1], n;
	char err[256];

	CHECK(d->state == FDR_BUF_RELEASED, "buffer %u released at exit", i);
	CHECK(d->owner_pid == pids[0] || d->owner_pid == pids[1],
	      "buffer %u: owner %d is a child", i, d->owner_pid);
	n = parse_buffer(tr_buffer(tr, i), d->extents, recs, 8192, err,
			 sizeof(err));
	CHECK(n > 0, "buffer %u parses: %s", i, err);
	for (int r = 0; r < n; r++) {
		if (recs[r].type != REC_FN)
			continue;
		CHECK(recs[r].fid / 1000 == (uint32_t)p + 1,
		      "fid %u in a buffer of process %d", recs[r].fid, p);
		count[p]++;
	}
	return true;
}

bool tr_two_processes(struct test_region *tr, int pairs)
{
	int count[2] = { 0, 0 }, status;
	pid_t pids[2];

	fdr_detach();
	for (int p = 0; p < 2; p++) {
		pids[p] = fork();
		if (pids[p] == 0) {
			fdr_attach(tr->target);
			record_pairs(p, pairs);
			exit(0);
		}
	}
	for (int p = 0; p < 2; p++) {
		waitpid(pids[p], &status, 0);
		CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0, "child ok");
	}
	for (uint32_t i = 0; i < tr->c->nr_buffers; i++)
		if (tr_desc(tr, i)->extents &&
		    !count_child_records(tr, i, pids, count))
			return false;
	CHECK(count[0] == 2 * pairs && count[1] == 2 * pairs,
	      "all records of both: %d %d", count[0], count[1]);
	return true;
}

int count_fn(const struct rec *r, int n, uint32_t kind)
{
	int c = 0;

	for (int i = 0; i < n; i++)
		c += r[i].type == REC_FN && r[i].fn_kind == kind;
	return c;
}

/*
 * Buffers are read by libfdrread, the reader the logs get: wrapped as
 * fdrd would write them (a v2 header, one BufferExtents block), verified
 * (LLVM's block grammar), then decoded.  Function TSCs are rebuilt the
 * way llvm-xray does (§3.1).
 */
#define LOG_PREFIX	(FDR_LOG_HEADER_SIZE + FDR_METADATA_SIZE)

struct parse_ctx {
	const uint8_t *data;	/* the buffer (records point into it) */
	struct rec *out;
	int max, n;
	uint64_t base;		/* TSC of the last record, as rebuilt */
	uint16_t cpu;
	char *err;
	size_t errlen;
};

#define FAIL(...) do { snprintf(p->err, p->errlen, __VA_ARGS__); return -1; } while (0)

static int take_metadata(struct parse_ctx *p, const struct fdr_record *f,
			 struct rec *r)
{
	switch (f->kind) {
	case FDR_MD_BUFFER_EXTENTS:
		return 1;	/* our wrapper */
	case FDR_MD_NEW_BUFFER:
		r->type = REC_NEW_BUFFER;
		r->tid = f->id;
		break;
	case FDR_MD_WALLTIME:
		r->type = REC_WALLTIME;
		r->sec = f->value;
		r->usec = f->usec;
		break;
	case FDR_MD_NEW_CPU_ID:
		r->type = REC_NEW_CPU;
		r->cpu = p->cpu = f->cpu;
		r->tsc = p->base = f->value;
		break;
	case FDR_MD_TSC_WRAP:
		r->type = REC_TSC_WRAP;
		r->tsc = p->base = f->value;
		break;
	case FDR_MD_CALL_ARGUMENT:
		r->type = REC_CALL_ARG;
		r->arg = f->value;
		if (p->n == 0 || p->n > p->max ||
		    (p->out[p->n - 1].type == REC_FN &&
		     p->out[p->n - 1].fn_kind != FDR_FN_ENTER_ARG))
			FAIL("CallArgument not after EnterArg (offset %llu)",
			     (unsigned long long)r->offset);
		break;
	case FDR_MD_CUSTOM_EVENT:
		r->type = REC_CUSTOM;
		r->ev_size = f->event_size;
		r->tsc = f->value;
		r->ev_data = p->data + r->offset + FDR_METADATA_SIZE;
		break;
	default:
		FAIL("unexpected %s record (offset %llu)",
		     fdr_record_kind_name(1, f->kind), (unsigned long long)r->offset);
	}
	return 0;
}

static int take_record(const struct fdr_record *f, void *ctx)
{
	struct parse_ctx *p = ctx;
	struct rec r = { .offset = f->offset - LOG_PREFIX };
	int ret;

	if (f->is_metadata) {
		ret = take_metadata(p, f, &r);
		if (ret)
			return ret > 0 ? 0 : -1;
	} else {
		r.type = REC_FN;
		r.fn_kind = f->kind;
		r.fid = f->func_id;
		r.delta = f->delta;
		r.tsc = p->base += f->delta;
		r.cpu = p->cpu;
	}
	if (p->n < p->max)
		p->out[p->n] = r;
	p->n++;
	return 0;
}

#undef FAIL

int parse_buffer(const uint8_t *data, uint64_t extents, struct rec *out,
		 int max, char *err, size_t errlen)
{
	struct fdr_log_header h = { .version = 2, .type = FDR_LOG_TYPE_FDR,
				    .cycle_frequency = 1000000000,
				    .buffer_size = extents };
	struct parse_ctx p = { .data = data, .out = out, .max = max,
			       .err = err, .errlen = errlen };
	uint8_t be[FDR_METADATA_SIZE] = { FDR_MD_FIRST_BYTE(FDR_MD_BUFFER_EXTENTS) };
	struct fdr_reader_error rerr = { 0 };
	struct fdr_log *log = NULL;
	uint8_t *buf = malloc(LOG_PREFIX + extents);
	int ret = -1;

	if (!buf) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	memcpy(buf, &h, sizeof(h));
	memcpy(be + 1, &extents, sizeof(extents));
	memcpy(buf + FDR_LOG_HEADER_SIZE, be, sizeof(be));
	memcpy(buf + LOG_PREFIX, data, extents);
	if (fdr_log_open_memory(&log, buf, LOG_PREFIX + extents, &rerr) ||
	    fdr_log_verify(log, &rerr)) {
		snprintf(err, errlen, "libfdrread (log offset = buffer offset + %d): %s",
				 LOG_PREFIX, rerr.message);
	} else if (fdr_log_for_each_record(log, take_record, &p, &rerr)) {
		if (rerr.message[0])
			snprintf(err, errlen, "libfdrread (log offset = buffer offset + %d): %s",
				 LOG_PREFIX, rerr.message);
	} else if (p.n > max) {
		snprintf(err, errlen, "more than %d records", max);
	} else {
		ret = p.n;
	}
	fdr_log_close(log);
	free(buf);
	return ret;
}

void tr_pin_cpu(int cpu)
{
	cpu_set_t s;

	CPU_ZERO(&s);
	CPU_SET(cpu, &s);
	sched_setaffinity(0, sizeof(s), &s);
}

uint64_t tr_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

void tr_spin_ns(uint64_t ns)
{
	uint64_t t0 = tr_now_ns();

	while (tr_now_ns() - t0 < ns)
		;
}

void tr_sleep_ms(unsigned ms)
{
	struct timespec ts = { ms / 1000, (long)(ms % 1000) * 1000000 };

	nanosleep(&ts, NULL);
}
