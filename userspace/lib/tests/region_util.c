// SPDX-License-Identifier: MIT
/* region_util.c - see region_util.h. */
#include <errno.h>
#include <sched.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <linux/fdr_log.h>
#include "region_util.h"

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
	int ret;

	memset(tr, 0, sizeof(*tr));
	snprintf(tr->target, sizeof(tr->target), "embedded:t-%s-%d", tag,
		 getpid());
	fdr_ctl_destroy_embedded(tr->target);
	remember(tr->target);
	ret = fdr_ctl_open(&tr->ctl, tr->target);
	if (ret == 0)
		ret = fdr_ctl_init(tr->ctl, &cfg);
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
	if (st.flush_state == FDR_FLUSH_FLUSHING)
		fdr_ctl_flush_abort(ctl);
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
	return fdr_ctl_map(tr->ctl, &tr->c, &tr->len);
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
	return (const struct fdr_buffer_desc *)((const char *)tr->c +
						tr->c->descs_offset) + i;
}

const uint8_t *tr_buffer(const struct test_region *tr, uint32_t i)
{
	return (const uint8_t *)tr->c + tr->c->control_size +
	       (uint64_t)i * tr->c->buffer_size;
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

int count_fn(const struct rec *r, int n, uint32_t kind)
{
	int c = 0;

	for (int i = 0; i < n; i++)
		c += r[i].type == REC_FN && r[i].fn_kind == kind;
	return c;
}

#define FAIL(...) do { snprintf(err, errlen, __VA_ARGS__); return -1; } while (0)

static int parse_metadata(const uint8_t *p, uint64_t left, struct rec *r,
			  uint64_t *base, uint16_t *cpu, char *err,
			  size_t errlen, uint64_t *len)
{
	uint8_t kind = p[0] >> 1;

	*len = FDR_METADATA_SIZE;
	if (left < FDR_METADATA_SIZE)
		FAIL("metadata record cut at extents");
	switch (kind) {
	case FDR_MD_NEW_BUFFER:
		r->type = REC_NEW_BUFFER;
		memcpy(&r->tid, p + 1, 4);
		break;
	case FDR_MD_WALLTIME:
		r->type = REC_WALLTIME;
		memcpy(&r->sec, p + 1, 8);
		memcpy(&r->usec, p + 9, 4);
		break;
	case FDR_MD_NEW_CPU_ID:
		r->type = REC_NEW_CPU;
		memcpy(&r->cpu, p + 1, 2);
		memcpy(&r->tsc, p + 3, 8);
		*base = r->tsc;
		*cpu = r->cpu;
		break;
	case FDR_MD_TSC_WRAP:
		r->type = REC_TSC_WRAP;
		memcpy(&r->tsc, p + 1, 8);
		*base = r->tsc;
		break;
	case FDR_MD_CALL_ARGUMENT:
		r->type = REC_CALL_ARG;
		memcpy(&r->arg, p + 1, 8);
		break;
	case FDR_MD_CUSTOM_EVENT:
		r->type = REC_CUSTOM;
		memcpy(&r->ev_size, p + 1, 4);
		memcpy(&r->tsc, p + 5, 8);
		if (r->ev_size <= 0 || (uint64_t)r->ev_size > left - 16)
			FAIL("custom event size %d does not fit", r->ev_size);
		r->ev_data = p + 16;
		*len += (uint64_t)r->ev_size;
		break;
	default:
		FAIL("unexpected metadata kind %u", kind);
	}
	return 0;
}

/* What may follow what: the BlockVerifier of FORMAT.md §4.4, v2 subset. */
static bool allowed(int prev, const struct rec *r)
{
	int cur = r->type;

	switch (prev) {
	case -1: return cur == REC_NEW_BUFFER;
	case REC_NEW_BUFFER: return cur == REC_WALLTIME;
	case REC_WALLTIME: return cur == REC_NEW_CPU;
	case REC_CALL_ARG:
	case REC_NEW_CPU: case REC_TSC_WRAP: case REC_CUSTOM: case REC_FN:
		if (cur == REC_CALL_ARG)
			return prev == REC_FN || prev == REC_CALL_ARG;
		return cur != REC_NEW_BUFFER && cur != REC_WALLTIME;
	}
	return false;
}

int parse_buffer(const uint8_t *data, uint64_t extents, struct rec *out,
		 int max, char *err, size_t errlen)
{
	uint64_t off = 0, base = 0;
	uint16_t cpu = 0;
	int n = 0, prev = -1;

	while (off < extents) {
		struct rec r = { .offset = off };
		uint64_t len = FDR_FUNCTION_SIZE;

		if (data[off] & 1) {
			if (parse_metadata(data + off, extents - off, &r, &base,
					   &cpu, err, errlen, &len))
				return -1;
		} else {
			uint32_t w[2];

			if (extents - off < FDR_FUNCTION_SIZE)
				FAIL("function record cut at extents (offset %llu)",
				     (unsigned long long)off);
			memcpy(w, data + off, 8);
			r.type = REC_FN;
			r.fn_kind = FDR_FN_KIND(w[0]);
			r.fid = FDR_FN_ID(w[0]);
			r.delta = w[1];
			base += w[1];
			r.tsc = base;
			r.cpu = cpu;
			if (r.fn_kind > FDR_FN_ENTER_ARG)
				FAIL("bad function kind %u", r.fn_kind);
		}
		if (!allowed(prev, &r))
			FAIL("record type %d may not follow %d (offset %llu)",
			     r.type, prev, (unsigned long long)off);
		if (r.type == REC_CALL_ARG && prev == REC_FN && n <= max &&
		    out[n - 1].fn_kind != FDR_FN_ENTER_ARG)
			FAIL("CallArgument after a function kind %u",
			     out[n - 1].fn_kind);
		prev = r.type;
		if (n < max)
			out[n] = r;
		n++;
		off += len;
	}
	if (off != extents)
		FAIL("records overrun extents");
	if (n > max)
		FAIL("more than %d records", max);
	return n;
}

void tr_pin_cpu(int cpu)
{
	cpu_set_t s;

	CPU_ZERO(&s);
	CPU_SET(cpu, &s);
	sched_setaffinity(0, sizeof(s), &s);
}
