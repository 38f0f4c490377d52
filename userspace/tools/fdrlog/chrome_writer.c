// SPDX-License-Identifier: MIT
/*
 * chrome_writer.c - Chrome trace-event JSON (the format Perfetto and
 * chrome://tracing load): one object per event, "B"/"E" duration events
 * per (pid, tid), instant events for custom and typed events, timestamps
 * in microseconds computed from the header's CycleFrequency (TSC ticks
 * printed as microseconds when the frequency is 0).
 */
#include <stdio.h>
#include "convert.h"
#include "parallel_format.h"

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
static void json_string(struct out_buffer *o, const void *str, size_t n)
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

static void write_timestamp(struct out_buffer *o, uint64_t tsc, uint64_t freq)
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
	json_string(o, name, strlen(name));
}

static void write_args(struct out_buffer *o, const struct fdr_trace *t,
		       const struct fdr_event *ev)
{
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
		for (uint32_t i = 0; i < n; i++) {
			if (i)
				out_char(o, ',');
			out_u64(o, args[i]);
		}
		out_char(o, ']');
	}
	data = fdr_event_payload(t, ev, &n);
	if (ev->kind == FDR_EVENT_TYPED) {
		out_str(o, ",\"type\":");
		out_u64(o, ev->record_type);
	}
	if (data) {
		out_str(o, ",\"data\":");
		json_string(o, data, n);
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

static void write_event(struct out_buffer *o, const struct fdr_trace *t,
			const struct fdr_event *ev, const struct symbols *syms,
			uint64_t freq)
{
	out_str(o, "{\"name\":");
	write_name(o, ev, syms);
	out_str(o, ",\"cat\":\"");
	out_str(o, ev->kind >= FDR_EVENT_CUSTOM ? "event" : "function");
	out_str(o, "\",\"ph\":\"");
	out_str(o, phase(ev->kind));
	out_str(o, "\",\"ts\":");
	write_timestamp(o, ev->tsc, freq);
	out_str(o, ",\"pid\":");
	out_u64(o, ev->pid);
	out_str(o, ",\"tid\":");
	out_u64(o, ev->tid);
	write_args(o, t, ev);
	out_char(o, '}');
}

struct chrome_job {
	const struct fdr_trace *t;
	const struct symbols *syms;
	uint64_t freq;
};

static void write_events(struct out_buffer *o, size_t lo, size_t hi, void *ctx)
{
	const struct chrome_job *job = ctx;

	for (size_t i = lo; i < hi; i++) {
		out_str(o, i ? ",\n" : "\n");
		write_event(o, job->t, fdr_trace_at(job->t, i), job->syms, job->freq);
	}
}

void write_chrome(struct out_buffer *o, const struct fdr_trace *t, const struct symbols *syms)
{
	struct chrome_job job = { t, syms, fdr_log_get_header(t->log)->cycle_frequency };

	out_str(o, "{\"displayTimeUnit\":\"ns\",\"traceEvents\":[");
	format_in_parallel(o, t->count, write_events, &job);
	out_str(o, "\n]}\n");
}
