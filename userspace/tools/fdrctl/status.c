// SPDX-License-Identifier: MIT
/* status.c - 'fdrctl status [--json]' and 'fdrctl wait STATE'. */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "fdrctl.h"

static const char status_usage[] =
	"usage: fdrctl [--target T] status [--json]\n\n"
	"Print the state, flush state, geometry, TSC frequency and counters of\n"
	"the recorder, and whether it records scheduling (records kept and\n"
	"overwritten), the latency trigger (--trigger-duration of init) and\n"
	"the triggers it fired and refused in its holdoff, and what finalized\n"
	"the region (for a trigger: the function id, how long its call lasted,\n"
	"the process and thread), its mode (flight recorder or stream), and when\n"
	"records were dropped, how many on each CPU (read from the region's\n"
	"control area).  --json prints one JSON object on one line.\n";

/* Records dropped per CPU, from the rings of the mapped control area
 * (STATUS has only their sum); only the CPUs with drops. */
struct cpu_drops {
	uint32_t n;
	uint32_t *cpu;
	uint64_t *records;
};

static const char *finalize_reason_name(uint32_t r)
{
	switch (r) {
	case FDR_FINALIZE_NONE: return "none";
	case FDR_FINALIZE_IOCTL: return "ioctl";
	case FDR_FINALIZE_CRASH: return "crash";
	case FDR_FINALIZE_TRIGGER: return "trigger";
	default: return "unknown";
	}
}

static const char *mode_name(const struct fdr_status *s)
{
	return s->flags & FDR_CTL_STREAM ? "stream" : "flight";
}

static void print_json_drops(const struct cpu_drops *d)
{
	printf(",\"records_dropped_per_cpu\":{");
	for (uint32_t i = 0; i < d->n; i++)
		printf("%s\"%u\":%llu", i ? "," : "", d->cpu[i],
		       (unsigned long long)d->records[i]);
	printf("}");
}

static void print_json(const char *target, const struct fdr_status *s,
		       const struct cpu_drops *d)
{
	printf("{\"target\":\"%s\",\"state\":\"%s\",\"flush_state\":\"%s\","
	       "\"mode\":\"%s\",\"generation\":%u,\"embedded\":%s,\"constant_tsc\":%s,"
	       "\"nonstop_tsc\":%s,\"crash_finalize\":%s,\"tsc_hz\":%llu,"
	       "\"buffer_size\":%llu,\"buffers_per_cpu\":%u,\"nr_cpus\":%u,"
	       "\"nr_buffers\":%u,\"control_size\":%llu,\"map_size\":%llu,"
	       "\"buffers_in_use\":%u,\"buffers_acquired\":%llu,"
	       "\"buffers_recycled\":%llu,\"buffers_reclaimed\":%llu,"
	       "\"records_dropped\":%llu,\"finalize_reason\":\"%s\","
	       "\"finalize_signal\":%u,\"finalize_pid\":%d,"
	       "\"default_buffer_size\":%llu,\"default_buffers_per_cpu\":%u,"
	       "\"sched\":%s,\"sched_refused\":%s,\"sched_size\":%llu,"
	       "\"sched_records\":%llu,"
	       "\"sched_overwritten\":%llu,\"trigger_ns\":%llu,"
	       "\"trigger_fid\":%d,\"trigger_holdoff_ms\":%u,"
	       "\"finalize_tid\":%d,\"finalize_fid\":%d,"
	       "\"finalize_duration_ns\":%llu,\"triggers_fired\":%llu,"
	       "\"triggers_refused\":%llu",
	       target, fdr_state_name(s->state),
	       fdr_flush_state_name(s->flush_state), mode_name(s), s->generation,
	       s->flags & FDR_CTL_EMBEDDED ? "true" : "false",
	       s->flags & FDR_CTL_CONSTANT_TSC ? "true" : "false",
	       s->flags & FDR_CTL_NONSTOP_TSC ? "true" : "false",
	       s->flags & FDR_CTL_CRASH_FINALIZE ? "true" : "false",
	       (unsigned long long)s->tsc_hz,
	       (unsigned long long)s->buffer_size, s->buffers_per_cpu,
	       s->nr_cpus, s->nr_buffers, (unsigned long long)s->control_size,
	       (unsigned long long)s->map_size, s->buffers_in_use,
	       (unsigned long long)s->buffers_acquired,
	       (unsigned long long)s->buffers_recycled,
	       (unsigned long long)s->buffers_reclaimed,
	       (unsigned long long)s->records_dropped,
	       finalize_reason_name(s->finalize_reason), s->finalize_signal,
	       s->finalize_pid, (unsigned long long)s->default_buffer_size,
	       s->default_buffers_per_cpu,
	       s->flags & FDR_CTL_SCHED ? "true" : "false",
	       s->flags & FDR_CTL_SCHED_REFUSED ? "true" : "false",
	       (unsigned long long)s->sched_size,
	       (unsigned long long)s->sched_records,
	       (unsigned long long)s->sched_overwritten,
	       (unsigned long long)s->trigger_ns, s->trigger_fid,
	       s->trigger_holdoff_ms, s->finalize_tid, s->finalize_fid,
	       (unsigned long long)s->finalize_duration_ns,
	       (unsigned long long)s->triggers_fired,
	       (unsigned long long)s->triggers_refused);
	print_json_drops(d);
	printf("}\n");
}

/* "20 ms", "1500 us", "3 s", "0 ns": the largest unit that is exact. */
static const char *duration_text(uint64_t ns, char *buf, size_t len)
{
	if (ns && ns % 1000000000u == 0)
		snprintf(buf, len, "%llu s", (unsigned long long)(ns / 1000000000u));
	else if (ns && ns % 1000000u == 0)
		snprintf(buf, len, "%llu ms", (unsigned long long)(ns / 1000000u));
	else if (ns && ns % 1000u == 0)
		snprintf(buf, len, "%llu us", (unsigned long long)(ns / 1000u));
	else if (ns >= 1000000u)	/* a measured one: ms with decimals */
		snprintf(buf, len, "%.3f ms (%llu ns)", (double)ns / 1e6,
			 (unsigned long long)ns);
	else
		snprintf(buf, len, "%llu ns", (unsigned long long)ns);
	return buf;
}

static void print_trigger(const struct fdr_status *s)
{
	char d[64];

	if (!s->trigger_ns)
		printf("trigger:           none (holdoff %u ms)\n",
		       s->trigger_holdoff_ms);
	else if (s->trigger_fid)
		printf("trigger:           a call of function #%d lasting %s, holdoff %u ms\n",
		       s->trigger_fid, duration_text(s->trigger_ns, d, sizeof(d)),
		       s->trigger_holdoff_ms);
	else
		printf("trigger:           a call of any function lasting %s, holdoff %u ms\n",
		       duration_text(s->trigger_ns, d, sizeof(d)),
		       s->trigger_holdoff_ms);
	printf("triggers:          %llu fired, %llu refused in the holdoff\n",
	       (unsigned long long)s->triggers_fired,
	       (unsigned long long)s->triggers_refused);
}

static void print_finalized_by(const struct fdr_status *s)
{
	char d[64];

	if (s->finalize_reason == FDR_FINALIZE_TRIGGER && s->finalize_fid)
		printf("finalized by:      trigger: function #%d lasted %s (pid %d, tid %d)\n",
		       s->finalize_fid,
		       duration_text(s->finalize_duration_ns, d, sizeof(d)),
		       s->finalize_pid, s->finalize_tid);
	else if (s->finalize_reason == FDR_FINALIZE_TRIGGER)
		printf("finalized by:      trigger by hand (pid %d, tid %d)\n",
		       s->finalize_pid, s->finalize_tid);
	else
		printf("finalized by:      %s (pid %d, signal %u)\n",
		       finalize_reason_name(s->finalize_reason), s->finalize_pid,
		       s->finalize_signal);
}

/* Whether fdr.ko records context switches, and how much it kept. */
static void print_sched(const struct fdr_status *s)
{
	if (!(s->flags & FDR_CTL_SCHED)) {
		printf("scheduling:        off%s\n", s->flags & FDR_CTL_EMBEDDED ?
		       " (the embedded backend has none)" :
		       s->flags & FDR_CTL_SCHED_REFUSED ?
		       " (asked for, but no slot was free at init: 16 machine-wide, max_user_sched per user)" : "");
		return;
	}
	printf("scheduling:        on, %llu records (%llu overwritten), area %llu bytes\n",
	       (unsigned long long)s->sched_records,
	       (unsigned long long)s->sched_overwritten,
	       (unsigned long long)s->sched_size);
}

static void print_text_drops(const struct cpu_drops *d)
{
	if (!d->n)
		return;
	printf("dropped per CPU:   ");
	for (uint32_t i = 0; i < d->n; i++)
		printf("%scpu %u: %llu", i ? ", " : "", d->cpu[i],
		       (unsigned long long)d->records[i]);
	printf("\n");
}

static void print_text(const char *target, const struct fdr_status *s,
		       const struct cpu_drops *d)
{
	printf("target:            %s (%s)\n", target,
	       s->flags & FDR_CTL_EMBEDDED ? "embedded" : "device");
	printf("state:             %s\n", fdr_state_name(s->state));
	printf("flush state:       %s\n", fdr_flush_state_name(s->flush_state));
	printf("generation:        %u\n", s->generation);
	if (s->state != FDR_STATE_UNINITIALIZED) {
		printf("buffers:           %u CPUs x %u buffers of %llu bytes (%u in use)\n",
		       s->nr_cpus, s->buffers_per_cpu,
		       (unsigned long long)s->buffer_size, s->buffers_in_use);
		printf("map size:          %llu bytes (control area %llu)\n",
		       (unsigned long long)s->map_size,
		       (unsigned long long)s->control_size);
		printf("tsc:               %llu Hz%s%s\n",
		       (unsigned long long)s->tsc_hz,
		       s->flags & FDR_CTL_CONSTANT_TSC ? ", constant" : "",
		       s->flags & FDR_CTL_NONSTOP_TSC ? ", nonstop" : "");
		printf("mode:              %s\n", s->flags & FDR_CTL_STREAM ?
		       "stream (writers take free buffers only, else drop)" :
		       "flight recorder (writers overwrite the oldest buffers)");
		printf("crash finalize:    %s\n",
		       s->flags & FDR_CTL_CRASH_FINALIZE ? "yes" : "no");
		print_sched(s);
		print_trigger(s);
	}
	printf("buffers acquired:  %llu\n", (unsigned long long)s->buffers_acquired);
	printf("buffers recycled:  %llu\n", (unsigned long long)s->buffers_recycled);
	printf("buffers reclaimed: %llu\n", (unsigned long long)s->buffers_reclaimed);
	printf("records dropped:   %llu\n", (unsigned long long)s->records_dropped);
	print_text_drops(d);
	if (s->finalize_reason != FDR_FINALIZE_NONE)
		print_finalized_by(s);
	printf("defaults:          %u buffers of %llu bytes per CPU\n",
	       s->default_buffers_per_cpu,
	       (unsigned long long)s->default_buffer_size);
}

/*
 * The rings of the region's control area, mapped read-only: every CPU's
 * records_dropped that is not 0.  Their sum is in STATUS, so with none
 * dropped there is nothing to map.  The page is the writers' too: its
 * offset is checked against the mapping, and the CPU count is STATUS's.
 * Best effort: without the map, status just has no per-CPU line.
 */
static void read_drops(struct fdr_ctl *ctl, const struct fdr_status *st,
		       struct cpu_drops *d)
{
	const struct fdr_control *c;
	const struct fdr_cpu_ring *rings;
	size_t len;
	uint64_t off;

	memset(d, 0, sizeof(*d));
	if (st->state == FDR_STATE_UNINITIALIZED || !st->records_dropped ||
	    !st->nr_cpus || fdr_ctl_map(ctl, &c, &len) < 0)
		return;
	off = c->rings_offset;
	if (off < FDR_CONTROL_HEADER_SIZE || off % FDR_CPU_RING_SIZE ||
	    off + (uint64_t)st->nr_cpus * FDR_CPU_RING_SIZE > len)
		goto out;
	d->cpu = calloc(st->nr_cpus, sizeof(*d->cpu));
	d->records = calloc(st->nr_cpus, sizeof(*d->records));
	if (!d->cpu || !d->records)
		goto out;
	rings = (const struct fdr_cpu_ring *)((const char *)c + off);
	for (uint32_t i = 0; i < st->nr_cpus; i++) {
		uint64_t n = __atomic_load_n(&rings[i].records_dropped,
					     __ATOMIC_RELAXED);

		if (n) {
			d->cpu[d->n] = i;
			d->records[d->n++] = n;
		}
	}
out:
	fdr_ctl_unmap(ctl);
}

static void free_drops(struct cpu_drops *d)
{
	free(d->cpu);
	free(d->records);
}

/* The JSON string carries the target; keep it printable and unquoted. */
static const char *json_safe(const char *s, char *buf, size_t len)
{
	size_t i;

	for (i = 0; s[i] && i + 1 < len; i++)
		buf[i] = (s[i] == '"' || s[i] == '\\' || (unsigned char)s[i] < 32) ?
				 '_' : s[i];
	buf[i] = 0;
	return buf;
}

int cmd_status(struct fdrctl_opts *o, int argc, char **argv)
{
	struct fdr_status st;
	struct cpu_drops drops;
	struct fdr_ctl *ctl;
	char name[256];
	const char *target;
	int json = 0, ret;

	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
			fputs(status_usage, stdout);
			return EXIT_OK;
		} else if (!strcmp(argv[i], "--json")) {
			json = 1;
		} else {
			fprintf(stderr, "fdrctl: unexpected argument '%s'\n%s",
				argv[i], status_usage);
			return EXIT_USAGE;
		}
	}
	ret = fdrctl_open(o, &ctl);
	if (ret)
		return ret;
	ret = fdr_ctl_status(ctl, &st);
	if (ret < 0) {
		ret = fdrctl_fail(ctl, "status", ret);
		fdr_ctl_close(ctl);
		return ret;
	}
	target = o->target ? o->target :
		 getenv("FDR_TARGET") && *getenv("FDR_TARGET") ?
		 getenv("FDR_TARGET") : FDR_DEFAULT_DEVICE;
	read_drops(ctl, &st, &drops);
	if (json)
		print_json(json_safe(target, name, sizeof(name)), &st, &drops);
	else
		print_text(target, &st, &drops);
	free_drops(&drops);
	fdr_ctl_close(ctl);
	return EXIT_OK;
}

static const char wait_usage[] =
	"usage: fdrctl [--target T] wait STATE [--timeout MS]\n\n"
	"Wait until the recorder is in STATE (UNINITIALIZED, INITIALIZED,\n"
	"FINALIZED, or a flush state: NOT_FLUSHING, FLUSHING, FLUSHED).\n"
	"Exit status 1 if MS milliseconds pass first.\n";

/* Returns 0 for a log state, 1 for a flush state, -1 if unknown. */
static int parse_state(const char *s, uint32_t *v)
{
	for (uint32_t i = 0; i <= FDR_STATE_FINALIZED; i++)
		if (!strcasecmp(s, fdr_state_name(i)))
			return *v = i, 0;
	for (uint32_t i = 0; i <= FDR_FLUSH_FLUSHED; i++)
		if (!strcasecmp(s, fdr_flush_state_name(i)))
			return *v = i, 1;
	return -1;
}

static int wait_loop(struct fdr_ctl *ctl, int is_flush, uint32_t want,
		     long timeout_ms)
{
	for (;;) {
		struct fdr_status st;
		int ret = fdr_ctl_status(ctl, &st);

		if (ret < 0)
			return fdrctl_fail(ctl, "wait", ret);
		if ((is_flush ? st.flush_state : st.state) == want)
			return EXIT_OK;
		ret = fdr_ctl_wait(ctl, st.state, st.flush_state,
				   (int)timeout_ms);
		if (ret == -ETIMEDOUT) {
			fprintf(stderr, "fdrctl: timed out waiting for %s (still %s/%s)\n",
				is_flush ? fdr_flush_state_name(want) :
					   fdr_state_name(want),
				fdr_state_name(st.state),
				fdr_flush_state_name(st.flush_state));
			return EXIT_REFUSED;
		}
		if (ret < 0)
			return fdrctl_fail(ctl, "wait", ret);
	}
}

int cmd_wait(struct fdrctl_opts *o, int argc, char **argv)
{
	long timeout_ms = -1;
	const char *state = NULL;
	struct fdr_ctl *ctl;
	uint32_t want;
	int is_flush, ret;

	if (fdrctl_wants_help(argc, argv)) {
		fputs(wait_usage, stdout);
		return EXIT_OK;
	}
	for (int i = 1; i < argc; i++) {
		char *end;

		if (!strcmp(argv[i], "--timeout") && i + 1 < argc) {
			timeout_ms = strtol(argv[++i], &end, 10);
			if (*end || timeout_ms < 0 || timeout_ms > 86400000) {
				fprintf(stderr, "fdrctl: bad --timeout '%s'\n%s",
					argv[i], wait_usage);
				return EXIT_USAGE;
			}
		} else if (!state) {
			state = argv[i];
		} else {
			fprintf(stderr, "fdrctl: unexpected argument '%s'\n%s",
				argv[i], wait_usage);
			return EXIT_USAGE;
		}
	}
	is_flush = state ? parse_state(state, &want) : -1;
	if (is_flush < 0) {
		fprintf(stderr, "fdrctl: %s state '%s'\n%s",
			state ? "unknown" : "missing", state ? state : "",
			wait_usage);
		return EXIT_USAGE;
	}
	ret = fdrctl_open(o, &ctl);
	if (ret)
		return ret;
	/* The deadline is per wakeup here; fine for a command-line helper. */
	ret = wait_loop(ctl, is_flush, want, timeout_ms);
	fdr_ctl_close(ctl);
	return ret;
}
