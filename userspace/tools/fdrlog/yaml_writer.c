// SPDX-License-Identifier: MIT
/*
 * yaml_writer.c - the YAML of `llvm-xray convert -f yaml`, byte for byte:
 * header fields padded to a 17-column key, one flow mapping per record,
 * "args" only when there are arguments, "thread"/"process" only when
 * non-zero, "data" always.
 */
#include "convert.h"
#include "parallel_format.h"
#include "yaml_scalar.h"

void yaml_header(struct out_buffer *o, const struct fdr_log_header *h)
{
	out_str(o, "---\nheader:\n  version:         ");
	out_u64(o, h->version);
	out_str(o, "\n  type:            ");
	out_u64(o, h->type);
	out_str(o, "\n  constant-tsc:    ");
	out_str(o, (h->flags & FDR_LOG_FLAG_CONSTANT_TSC) ? "true" : "false");
	out_str(o, "\n  nonstop-tsc:     ");
	out_str(o, (h->flags & FDR_LOG_FLAG_NONSTOP_TSC) ? "true" : "false");
	out_str(o, "\n  cycle-frequency: ");
	out_u64(o, h->cycle_frequency);
	out_char(o, '\n');
}

/*
 * The hot path: one record line formatted straight into the output
 * buffer.  Integers are converted two digits at a time; the
 * ", thread: T, process: P" part is cached per thread.
 */
#define LINE_MAX_FIXED 256	/* a line without args, payload or symbol */
#define PUT(p, lit) (memcpy((p), (lit), sizeof(lit) - 1), (p) + sizeof(lit) - 1)

static const char digit_pairs[201] =
	"00010203040506070809101112131415161718192021222324252627282930313233343536373839"
	"40414243444546474849505152535455565758596061626364656667686970717273747576777879"
	"8081828384858687888990919293949596979899";

/* Digits of v < 10^8, right-aligned to end, 32-bit arithmetic. */
static inline char *put_u32_backwards(char *end, uint32_t v)
{
	while (v >= 100) {
		end -= 2;
		memcpy(end, digit_pairs + 2 * (v % 100), 2);
		v /= 100;
	}
	if (v >= 10) {
		end -= 2;
		memcpy(end, digit_pairs + 2 * v, 2);
	} else {
		*--end = (char)('0' + v);
	}
	return end;
}

/* Exactly 8 digits of v < 10^8 ending at end. */
static inline void put_8_digits(char *end, uint32_t v)
{
	for (int i = 0; i < 4; i++) {
		end -= 2;
		memcpy(end, digit_pairs + 2 * (v % 100), 2);
		v /= 100;
	}
}

static inline unsigned decimal_digits(uint64_t v)
{
	unsigned n = 1;

	while (v >= 10000) {
		v /= 10000;
		n += 4;
	}
	return n + (v >= 10) + (v >= 100) + (v >= 1000);
}

/*
 * v in decimal at p; returns the end.  Most numbers here are 1 digit (cpu,
 * type) or 10-20 (TSC): the first return early, the others are cut into
 * 8-digit pieces so the divisions stay 32-bit.
 */
static inline char *put_u64(char *p, uint64_t v)
{
	char *end;

	if (v < 10) {
		*p = (char)('0' + v);
		return p + 1;
	}
	end = p + decimal_digits(v);
	p = end;
	while (v >= 100000000) {
		put_8_digits(p, (uint32_t)(v % 100000000));
		p -= 8;
		v /= 100000000;
	}
	put_u32_backwards(p, (uint32_t)v);
	return end;
}

static inline char *put_i64(char *p, int64_t v)
{
	if (v < 0) {
		*p++ = '-';
		return put_u64(p, -(uint64_t)v);
	}
	return put_u64(p, (uint64_t)v);
}

static char *put_thread(char *p, struct yaml_cache *cache, const struct fdr_event *ev)
{
	struct yaml_thread_text *c = &cache->e[(ev->tid ^ ev->pid) & 63];

	if (!c->valid || c->tid != ev->tid || c->pid != ev->pid) {
		char *q = c->text;

		if (ev->tid) {
			q = PUT(q, ", thread: ");
			q = put_u64(q, ev->tid);
		}
		if (ev->pid) {
			q = PUT(q, ", process: ");
			q = put_u64(q, ev->pid);
		}
		c->tid = ev->tid;
		c->pid = ev->pid;
		c->len = (uint8_t)(q - c->text);
		c->valid = 1;
	}
	memcpy(p, c->text, sizeof(c->text));
	return p + c->len;
}

static const struct { char text[40]; size_t len; } kind_text[] = {
#define KIND(s) { ", kind: " s ", tsc: ", sizeof(", kind: " s ", tsc: ") - 1 }
	KIND("function-enter"), KIND("function-exit"), KIND("function-tail-exit"),
	KIND("function-enter-arg"), KIND("custom-event"), KIND("typed-event"),
#undef KIND
};

/* From "function: " on, when a symbol or arguments make the length open. */
static void write_slow_middle(struct out_buffer *o, const struct fdr_trace *t,
			      const struct fdr_event *ev, const struct symbols *syms)
{
	uint32_t n;
	const uint64_t *args = fdr_event_args(t, ev, &n);
	char tmp[64];
	const char *name;

	if (syms) {
		name = symbols_name(syms, ev->func_id, tmp, sizeof(tmp));
		yaml_scalar(o, name, strlen(name));
	} else {
		out_char(o, '\'');
		out_i64(o, ev->func_id);
		out_char(o, '\'');
	}
	out_str(o, ", ");
	if (n) {
		out_str(o, "args: [ ");
		for (uint32_t i = 0; i < n; i++) {
			if (i)
				out_str(o, ", ");
			out_u64(o, args[i]);
		}
		out_str(o, " ], ");
	}
}

void yaml_record(struct out_buffer *o, const struct fdr_trace *t, const struct fdr_event *ev,
		 const struct symbols *syms, struct yaml_cache *cache, const char *mark)
{
	char *p = out_reserve(o, LINE_MAX_FIXED), *fid, *fid_end;
	uint32_t size, nargs;
	const uint8_t *data;

	p = PUT(p, "  - { type: ");
	p = put_u64(p, ev->record_type);
	p = PUT(p, ", func-id: ");
	fid = p;
	p = fid_end = put_i64(p, ev->func_id);
	p = PUT(p, ", function: ");
	fdr_event_args(t, ev, &nargs);
	if (syms || nargs) {
		o->len = (size_t)(p - o->buf);
		write_slow_middle(o, t, ev, syms);
		p = out_reserve(o, LINE_MAX_FIXED);
	} else {
		/* to_string(id) is always numeric, hence single-quoted. */
		*p++ = '\'';
		memmove(p, fid, 12);
		p += fid_end - fid;
		p = PUT(p, "', ");
	}
	p = PUT(p, "cpu: ");
	p = put_u64(p, ev->cpu);
	p = put_thread(p, cache, ev);
	memcpy(p, kind_text[ev->kind].text, sizeof(kind_text[0].text));
	p += kind_text[ev->kind].len;
	p = put_u64(p, ev->tsc);
	data = fdr_event_payload(t, ev, &size);
	if (mark) {
		data = (const uint8_t *)mark;
		size = (uint32_t)strlen(mark);
	}
	if (!size) {
		p = PUT(p, ", data: '' }\n");
		o->len = (size_t)(p - o->buf);
		return;
	}
	p = PUT(p, ", data: ");
	o->len = (size_t)(p - o->buf);
	yaml_scalar(o, data, size);
	out_str(o, " }\n");
}

struct yaml_job {
	const struct fdr_trace *t;
	const struct symbols *syms;
};

static void write_records(struct out_buffer *o, size_t lo, size_t hi, void *ctx)
{
	const struct yaml_job *job = ctx;
	struct yaml_cache cache;

	memset(&cache, 0, sizeof(cache));
	for (size_t i = lo; i < hi; i++)
		yaml_record(o, job->t, fdr_trace_at(job->t, i), job->syms, &cache, NULL);
}

void yaml_records(struct out_buffer *o, const struct fdr_trace *t, const struct symbols *syms,
		  struct format_buffers *fb)
{
	struct yaml_job job = { t, syms };

	format_in_parallel_with(fb, o, t->count, write_records, &job);
}

void write_yaml(struct out_buffer *o, const struct fdr_trace *t, const struct symbols *syms)
{
	struct format_buffers fb = { .n = 0 };

	yaml_header(o, fdr_log_get_header(t->log));
	if (t->count == 0) {
		out_str(o, "records:         []\n...\n");
		return;
	}
	out_str(o, "records:\n");
	yaml_records(o, t, syms, &fb);
	format_buffers_release(&fb);
	out_str(o, "...\n");
}
