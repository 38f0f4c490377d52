// SPDX-License-Identifier: MIT
/*
 * chrome_writer.c - Chrome trace-event JSON (the format Perfetto and
 * chrome://tracing load): one object per event, "B"/"E" duration events
 * per (pid, tid), instant events for custom and typed events, timestamps
 * in microseconds computed from the header's CycleFrequency (TSC ticks
 * printed as microseconds when the frequency is 0).
 *
 * A v2 log knows only thread ids (llvm-xray gives pid = tid).  With fdrd's
 * side table each event gets its thread's real pid, and metadata events
 * name processes (executable's base name, else the main thread's command)
 * and threads (their command), so a viewer groups threads by process.
 * With fdrd's scheduling file, chrome_sched.c adds each thread's states
 * and the wakeup arrows.
 */
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include "arg_spec.h"
#include "chrome_sched.h"
#include "convert.h"
#include "parallel_format.h"

struct chrome_job {
	const struct fdr_trace *t;
	const struct symbols *syms;
	const struct fdr_thread_table *threads;
	const struct arg_specs *args;	/* fdr record -A/-R's, or NULL */
	uint64_t freq;
	bool after_metadata;	/* the first event follows another */
};

static void json_hex_escape(struct out_buffer *o, unsigned c)
{
	static const char hex[] = "0123456789abcdef";

	out_str(o, "\\u00");
	out_char(o, hex[c >> 4]);
	out_char(o, hex[c & 15]);
}

/* Length of a valid UTF-8 sequence at s, 0 if invalid. */
static size_t utf8_len(const unsigned char *s, size_t n)
{
	size_t len = s[0] >= 0xF0 && s[0] <= 0xF4 ? 4 : s[0] >= 0xE0 ? 3 : s[0] >= 0xC2 ? 2 : 0;

	if (!len || len > n || s[0] > 0xF4)
		return 0;
	for (size_t i = 1; i < len; i++)
		if ((s[i] & 0xC0) != 0x80)
			return 0;
	return len;
}

/* A JSON string; bytes that are not UTF-8 are written as \u00XX (Latin-1). */
void chrome_json_string(struct out_buffer *o, const void *str, size_t n)
{
	const unsigned char *s = str;

	out_char(o, '"');
	for (size_t i = 0; i < n; i++) {
		unsigned char c = s[i];
		size_t len;

		if (c == '"' || c == '\\') {
			out_char(o, '\\');
			out_char(o, (char)c);
		} else if (c < 0x20 || c == 0x7F) {
			json_hex_escape(o, c);
		} else if (c < 0x80) {
			out_char(o, (char)c);
		} else if ((len = utf8_len(s + i, n - i)) != 0) {
			out_bytes(o, s + i, len);
			i += len - 1;
		} else {
			json_hex_escape(o, c);
		}
	}
	out_char(o, '"');
}

void chrome_timestamp(struct out_buffer *o, uint64_t tsc, uint64_t freq)
{
	unsigned __int128 ns = freq ? (unsigned __int128)tsc * 1000000000u / freq
				    : (unsigned __int128)tsc * 1000u;
	uint64_t frac = (uint64_t)(ns % 1000);

	out_u64(o, (uint64_t)(ns / 1000));
	out_char(o, '.');
	out_char(o, (char)('0' + frac / 100));
	out_char(o, (char)('0' + frac / 10 % 10));
	out_char(o, (char)('0' + frac % 10));
}

static void write_name(struct out_buffer *o, const struct fdr_event *ev,
		       const struct symbols *syms)
{
	char tmp[64];
	const char *name;

	if (ev->kind == FDR_EVENT_CUSTOM) {
		out_str(o, "\"custom-event\"");
		return;
	}
	if (ev->kind == FDR_EVENT_TYPED) {
		out_str(o, "\"typed-event\"");
		return;
	}
	if (syms) {
		name = symbols_name(syms, ev->func_id, tmp, sizeof(tmp));
	} else {
		snprintf(tmp, sizeof(tmp), "#%d", ev->func_id);
		name = tmp;
	}
	chrome_json_string(o, name, strlen(name));
}

/* How far around a call's enter or exit its -A/-R record may be: other
 * threads' events interleave in TSC order, the call's own comes next. */
#define ARGS_LOOKAROUND 256

/* The -A strings record (after the call's enter at i: dir 1) or -R
 * record (before its exit: dir -1): the same thread's neighbouring
 * event, if it is one of that kind; else NULL. */
static const uint8_t *args_record(const struct fdr_trace *t, size_t i, int dir,
				  enum arg_record kind, uint32_t *size)
{
	uint32_t tid = fdr_trace_at(t, i)->tid;

	for (size_t k = 1; k <= ARGS_LOOKAROUND; k++) {
		const struct fdr_event *e;
		const uint8_t *p;

		if (dir > 0 ? i + k >= t->count : k > i)
			break;
		e = fdr_trace_at(t, dir > 0 ? i + k : i - k);
		if (e->tid != tid)
			continue;
		if (e->kind != FDR_EVENT_CUSTOM)
			return NULL;
		p = fdr_event_payload(t, e, size);
		return arg_record_kind(p, *size) == kind ? p : NULL;
	}
	return NULL;
}

/* "key":"text", text what fmt (arg_put_args, arg_put_ret_value) made of
 * the call's values in scratch, as fdr replay prints them. */
static void put_typed(struct out_buffer *o, struct out_buffer *scratch, const char *key)
{
	out_str(o, key);
	chrome_json_string(o, scratch->buf, scratch->len);
	scratch->len = 0;
}

/* fdr record -A/-R's values of the call entered or left at event i, typed
 * by its spec: "arguments" on the enter ("(-1, \"a\")"), "retval" on
 * the exit; viewers merge a slice's B and E args. */
static void write_typed_args(struct out_buffer *o, const struct chrome_job *job, size_t i,
			     struct out_buffer *scratch)
{
	const struct fdr_event *ev = fdr_trace_at(job->t, i);
	const struct arg_spec *spec = arg_specs_find(job->args, ev->func_id);
	const uint64_t *args;
	const uint8_t *p;
	uint32_t n, size = 0;

	if (!spec || (!scratch->buf && out_init(scratch, -1)))
		return;
	if (ev->kind == FDR_EVENT_ENTER_ARG) {
		args = fdr_event_args(job->t, ev, &n);
		p = args_record(job->t, i, 1, ARG_RECORD_STR, &size);
		arg_put_args(scratch, spec, args, n, p, size);
		put_typed(o, scratch, ",\"arguments\":");
	} else if (ev->kind == FDR_EVENT_EXIT || ev->kind == FDR_EVENT_TAIL_EXIT) {
		p = args_record(job->t, i, -1, ARG_RECORD_RET, &size);
		if (!p)
			return;
		arg_put_ret_value(scratch, spec, p, size);
		put_typed(o, scratch, ",\"retval\":");
	}
}

static void write_args(struct out_buffer *o, const struct chrome_job *job, size_t i,
		       struct out_buffer *scratch)
{
	const struct fdr_trace *t = job->t;
	const struct fdr_event *ev = fdr_trace_at(t, i);
	const uint64_t *args;
	const uint8_t *data;
	uint32_t n;

	out_str(o, ",\"args\":{\"cpu\":");
	out_u64(o, ev->cpu);
	out_str(o, ",\"func_id\":");
	out_i64(o, ev->func_id);
	args = fdr_event_args(t, ev, &n);
	if (n) {
		out_str(o, ",\"call_args\":[");
		for (uint32_t k = 0; k < n; k++) {
			if (k)
				out_char(o, ',');
			out_u64(o, args[k]);
		}
		out_char(o, ']');
	}
	if (job->args)
		write_typed_args(o, job, i, scratch);
	data = fdr_event_payload(t, ev, &n);
	if (ev->kind == FDR_EVENT_TYPED) {
		out_str(o, ",\"type\":");
		out_u64(o, ev->record_type);
	}
	if (data) {
		out_str(o, ",\"data\":");
		chrome_json_string(o, data, n);
	}
	out_char(o, '}');
}

static const char *phase(uint8_t kind)
{
	switch (kind) {
	case FDR_EVENT_ENTER:
	case FDR_EVENT_ENTER_ARG:
		return "B";
	case FDR_EVENT_EXIT:
	case FDR_EVENT_TAIL_EXIT:
		return "E";
	default:
		return "i\",\"s\":\"t";	/* thread-scoped instant event */
	}
}

static uint64_t event_pid(const struct fdr_thread_table *threads,
			  const struct fdr_event *ev)
{
	const struct fdr_thread_info *ti = fdr_thread_table_find(threads, (int32_t)ev->tid);

	return ti ? (uint64_t)ti->pid : ev->pid;
}

static void write_event(struct out_buffer *o, const struct chrome_job *job, size_t i,
			struct out_buffer *scratch)
{
	const struct fdr_event *ev = fdr_trace_at(job->t, i);

	out_str(o, "{\"name\":");
	write_name(o, ev, job->syms);
	out_str(o, ",\"cat\":\"");
	out_str(o, ev->kind >= FDR_EVENT_CUSTOM ? "event" : "function");
	out_str(o, "\",\"ph\":\"");
	out_str(o, phase(ev->kind));
	out_str(o, "\",\"ts\":");
	chrome_timestamp(o, ev->tsc, job->freq);
	out_str(o, ",\"pid\":");
	out_u64(o, event_pid(job->threads, ev));
	out_str(o, ",\"tid\":");
	out_u64(o, ev->tid);
	write_args(o, job, i, scratch);
	out_char(o, '}');
}

static void write_events(struct out_buffer *o, size_t lo, size_t hi, void *ctx)
{
	const struct chrome_job *job = ctx;
	struct out_buffer scratch = { .fd = -1 };	/* allocated at the first -A value */

	for (size_t i = lo; i < hi; i++) {
		out_str(o, i || job->after_metadata ? ",\n" : "\n");
		write_event(o, job, i, &scratch);
	}
	if (scratch.error && !o->error)
		o->error = scratch.error;
	out_release(&scratch);
}

bool thread_name_known(const char *s)
{
	return s && *s && strcmp(s, "unknown");
}

void chrome_metadata(struct out_buffer *o, const char *what, int64_t pid, int64_t tid,
		     const char *name, bool first)
{
	out_str(o, first ? "\n{\"name\":\"" : ",\n{\"name\":\"");
	out_str(o, what);
	out_str(o, "\",\"ph\":\"M\",\"pid\":");
	out_i64(o, pid);
	out_str(o, ",\"tid\":");
	out_i64(o, tid);
	out_str(o, ",\"args\":{\"name\":");
	chrome_json_string(o, name, strlen(name));
	out_str(o, "}}");
}

/* A process's name: its executable's base name, else its main thread's
 * command, else its pid. */
const char *thread_table_process_name(const struct fdr_thread_table *tt, int32_t pid,
				      char *tmp, size_t len)
{
	const struct fdr_thread_info *main = NULL;

	for (size_t i = 0; i < fdr_thread_table_count(tt); i++) {
		const struct fdr_thread_info *ti = fdr_thread_table_at(tt, i);

		if (ti->pid != pid)
			continue;
		if (thread_name_known(ti->exe)) {
			const char *slash = strrchr(ti->exe, '/');

			return slash && slash[1] ? slash + 1 : ti->exe;
		}
		if (ti->tid == pid)
			main = ti;
	}
	if (main && thread_name_known(main->comm))
		return main->comm;
	snprintf(tmp, len, "pid %d", pid);
	return tmp;
}

/* process_name once per pid (first appearance), thread_name per thread. */
static void write_names(struct out_buffer *o, const struct fdr_thread_table *tt)
{
	size_t n = fdr_thread_table_count(tt);
	char tmp[32];

	for (size_t i = 0; i < n; i++) {
		const struct fdr_thread_info *ti = fdr_thread_table_at(tt, i);
		bool seen = false;

		for (size_t j = 0; j < i && !seen; j++)
			seen = fdr_thread_table_at(tt, j)->pid == ti->pid;
		if (!seen)
			chrome_metadata(o, "process_name", ti->pid, ti->pid,
				       thread_table_process_name(tt, ti->pid, tmp, sizeof(tmp)), i == 0);
		if (thread_name_known(ti->comm))
			chrome_metadata(o, "thread_name", ti->pid, ti->tid, ti->comm, false);
	}
}

/* The log's first and last TSC, in whatever order the trace is. */
static void tsc_extent(const struct fdr_trace *t, uint64_t *lo, uint64_t *hi)
{
	*lo = t->count ? UINT64_MAX : 0;
	*hi = 0;
	for (size_t i = 0; i < t->count; i++) {
		uint64_t tsc = t->events[i].tsc;

		*lo = tsc < *lo ? tsc : *lo;
		*hi = tsc > *hi ? tsc : *hi;
	}
}

void write_chrome(struct out_buffer *o, const struct fdr_trace *t, const struct symbols *syms,
		  const struct arg_specs *args, const struct fdr_thread_table *threads,
		  const struct fdr_sched *sched)
{
	uint64_t freq = fdr_log_get_header(t->log)->cycle_frequency;
	struct chrome_job job = { t, syms, threads, args, freq,
				  fdr_thread_table_count(threads) + fdr_sched_thread_count(sched) > 0 };
	struct chrome_sched cs = { sched, threads, freq, 0, 0 };

	if (sched)
		tsc_extent(t, &cs.lo, &cs.hi);
	out_str(o, "{\"displayTimeUnit\":\"ns\",\"traceEvents\":[");
	write_names(o, threads);
	chrome_sched_names(o, &cs, fdr_thread_table_count(threads) == 0);
	format_in_parallel(o, t->count, write_events, &job);
	chrome_sched_events(o, &cs);
	out_str(o, "\n]}\n");
}
